import { loadScenario } from './scenarios/file/load.ts';
import { Oracle } from './scenarios/file/oracle.ts';
const s = loadScenario(process.argv[2]!);
let t = performance.now();
const o = new Oracle(s);
console.log('gen ms', performance.now() - t);
for (const q of s.queries.values()) {
  t = performance.now();
  const pool = o.pool(q, 50);
  console.log(q.name, 'pool ms', (performance.now() - t).toFixed(1), JSON.stringify(pool[0]).slice(0, 300));
  console.log(JSON.stringify(o.answer(q, pool[0]!.params)).slice(0, 300));
}

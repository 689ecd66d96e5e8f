import { loadScenario } from './scenarios/file/load.ts';
const s = loadScenario('/tmp/wt/own/tickets.yaml');
const g = s.collections.get('tickets')!.generator;
console.log(g.generate(1));

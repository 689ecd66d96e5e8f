/**
 * What does a user wait for before docbench does anything? Whole processes, started the way a
 * user starts them (`node bin/docbench.js …`), in interleaved rounds:
 *   1. `docbench --version`: start-up alone (target: median <= 0.3 s wall);
 *   2. `docbench run --store basic -P workloadc -p operationcount=1000`: start-up, a workload's
 *      parsing, one short run and its report (target: median <= 1 s wall).
 * With `--baseline <folder>` (another checkout of docbench, e.g. main's, its dependencies
 * installed) each command runs from both trees in turn, this one first in even rounds, and the
 * ratio of each round's pair is taken, so a machine that drifts moves both sides alike.
 *
 * Prints per tree and command the median wall and CPU seconds (user + system of the finished
 * child, as Linux accounts it: 10 ms resolution) with their range, and the median of the rounds'
 * wall ratios. Run it on a quiet machine; it prints the load average before and after.
 *
 *   npx tsx bench/startup.ts [--rounds 10] [--baseline ../docbench-main]
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { benchArgs, numberOf } from './bench-args.ts';

const { values } = benchArgs({
  script: import.meta.url,
  summary:
    'What a user waits for before docbench does anything: docbench --version and a short BasicDB run, as whole processes.',
  options: {
    rounds: { type: 'string', default: '10', value: '<n>', description: 'rounds counted, after one warm-up round' },
    baseline: {
      type: 'string',
      value: '<folder>',
      description: 'another checkout of docbench (its dependencies installed) to run beside this one',
    },
  },
});
const rounds = numberOf(import.meta.url, '--rounds', values.rounds);
const here = resolve(import.meta.dirname, '..');
const trees = [
  { name: 'this tree', dir: here },
  ...(values.baseline ? [{ name: 'baseline', dir: resolve(values.baseline) }] : []),
];
const COMMANDS = [
  { name: '--version', args: ['--version'] },
  {
    name: 'run basic workloadc, 1000 operations',
    args: ['run', '--store', 'basic', '-P', 'workloadc', '-p', 'operationcount=1000', '-q'],
  },
];

/** CPU seconds of this process's reaped children so far (Linux /proc: cutime + cstime, in clock ticks of 1/100 s). */
function childrenCpu(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface Sample {
  wall: number;
  cpu: number;
}

function time(dir: string, args: readonly string[]): Sample {
  const cpu = childrenCpu();
  const start = performance.now();
  const r = spawnSync(process.execPath, [join(dir, 'bin', 'docbench.js'), ...args], { cwd: dir, encoding: 'utf8' });
  const wall = (performance.now() - start) / 1000;
  if (r.status !== 0)
    throw new Error(`${dir}: docbench ${args.join(' ')} exited ${r.status}: ${r.stderr.trim().split('\n').at(-1)}`);
  return { wall, cpu: childrenCpu() - cpu };
}

const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const range = (xs: readonly number[], digits = 3) =>
  `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

console.log(`load average before: ${load()}; ${rounds} rounds after one warm-up each`);
for (const command of COMMANDS) {
  const samples = new Map(trees.map((t) => [t.name, [] as Sample[]]));
  const ratios: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const order = round % 2 === 0 ? trees : [...trees].reverse();
    const got = new Map(order.map((t) => [t.name, time(t.dir, command.args)]));
    if (round === 0) continue; // warm-up: the file system's caches
    for (const [name, s] of got) samples.get(name)!.push(s);
    if (trees.length === 2) ratios.push(got.get('this tree')!.wall / got.get('baseline')!.wall);
  }
  console.log(`\ndocbench ${command.args.join(' ')}`);
  for (const [name, s] of samples) {
    const walls = s.map((x) => x.wall);
    const cpus = s.map((x) => x.cpu);
    console.log(
      `  ${name.padEnd(10)} wall median ${median(walls).toFixed(3)} s (${range(walls)})   cpu median ${median(cpus).toFixed(2)} s (${range(cpus, 2)})`,
    );
  }
  if (ratios.length > 0)
    console.log(`  wall ratio this tree / baseline: median ${median(ratios).toFixed(3)} (${range(ratios)})`);
}
console.log(`\nload average after: ${load()}`);

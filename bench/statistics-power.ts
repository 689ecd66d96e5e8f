/**
 * What n buys (docs/statistics.md): docbench's own comparison (src/stats) run on simulated
 * repetitions, seeded, so the table in the docs can be made again:
 *
 *   node --import tsx bench/statistics-power.ts [trials]
 *
 * For each coefficient of variation (the run-to-run noise measured on the development machine)
 * and true difference (B slower than A by 10%, 20%, 40%), how often a comparison of n runs
 * against n says "slower" (its power), and the smallest n at which it does 80% of the time; and
 * for an A/A pair how often it wrongly says "faster" or "slower" (its false alarms), on
 * log-normal noise (the t intervals' assumption) and on noise with stalls (one run in ten 1.6×
 * slower, the shape the development machine showed), where the assumption does not hold.
 */
import { compareSamples } from '../src/stats/ratio.ts';
import { Random } from '../src/workload/random.ts';

const trials = Number(process.argv[2] ?? 2000);
const COVS = [0.03, 0.06, 0.1, 0.14, 0.17];
const DIFFERENCES = [0.1, 0.2, 0.4];
const NS = [2, 3, 4, 5, 6, 8, 10, 12, 16, 20];

type Noise = (random: Random, cov: number) => number;

function gaussian(random: Random): number {
  // Box–Muller; 1 − u keeps the logarithm finite.
  const u = 1 - random.nextDouble();
  const v = random.nextDouble();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Log-normal with median 1 and the given CoV. */
const logNormal: Noise = (random, cov) => Math.exp(Math.sqrt(Math.log(1 + cov * cov)) * gaussian(random));

/** Log-normal, and one run in ten stalled to 1/1.6 of its throughput. */
const stalls: Noise = (random, cov) => logNormal(random, cov) / (random.nextDouble() < 0.1 ? 1.6 : 1);

function rate(noise: Noise, cov: number, ratio: number, n: number, seed: number, verdicts: readonly string[]): number {
  const random = new Random(seed);
  let hits = 0;
  for (let t = 0; t < trials; t++) {
    const a = Array.from({ length: n }, () => 1000 * noise(random, cov));
    const b = Array.from({ length: n }, () => 1000 * ratio * noise(random, cov));
    if (verdicts.includes(compareSamples(a, b, { direction: 'higher-is-better' }).verdict)) hits += 1;
  }
  return hits / trials;
}

const percent = (x: number) => `${Math.round(x * 100)}%`;

process.stdout.write(`${trials} comparisons per entry, n runs of A against n of B, minEffect 5%\n\n`);
process.stdout.write(
  `Smallest n (per side) at which "slower" comes out in at least 80% of comparisons, log-normal noise:\n\n`,
);
process.stdout.write(`| CoV | ${DIFFERENCES.map((d) => `${percent(d)} slower`).join(' | ')} |\n`);
process.stdout.write(`|---|${DIFFERENCES.map(() => '---:').join('|')}|\n`);
let seed = 1;
for (const cov of COVS) {
  const cells = DIFFERENCES.map((d) => {
    for (const n of NS) if (rate(logNormal, cov, 1 - d, n, seed++, ['slower']) >= 0.8) return String(n);
    return `> ${NS[NS.length - 1]}`;
  });
  process.stdout.write(`| ${percent(cov)} | ${cells.join(' | ')} |\n`);
}
for (const [name, noise] of [
  ['log-normal noise', logNormal],
  ['noise with stalls (1 run in 10 at 1/1.6)', stalls],
] as const) {
  process.stdout.write(`\nA/A pairs, ${name}: share of comparisons saying "faster" or "slower" (false alarms)\n\n`);
  process.stdout.write(`| CoV | ${NS.map((n) => `n=${n}`).join(' | ')} |\n|---|${NS.map(() => '---:').join('|')}|\n`);
  for (const cov of [0.03, 0.14]) {
    const cells = NS.map((n) => percent(rate(noise, cov, 1, n, seed++, ['faster', 'slower'])));
    process.stdout.write(`| ${percent(cov)} | ${cells.join(' | ')} |\n`);
  }
}
process.stdout.write(`\nPower at n = 3 per side (the default), log-normal noise: share saying "slower"\n\n`);
process.stdout.write(`| CoV | ${DIFFERENCES.map((d) => `${percent(d)} slower`).join(' | ')} |\n`);
process.stdout.write(`|---|${DIFFERENCES.map(() => '---:').join('|')}|\n`);
for (const cov of COVS)
  process.stdout.write(
    `| ${percent(cov)} | ${DIFFERENCES.map((d) => percent(rate(logNormal, cov, 1 - d, 3, seed++, ['slower']))).join(' | ')} |\n`,
  );

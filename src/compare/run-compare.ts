/**
 * The main job: every workload on every store, repeated in rounds. Each round runs every store
 * once, in its own seeded random order (rounds.ts), and on each store the workloads in YCSB's
 * documented order on as few loads as that order allows (load-chains.ts): a round never runs on
 * what another round left behind. Each run is its own measurement, from its own histograms; the
 * table at the end gives every cell's median over the rounds with its interval, and per workload
 * which differences the rounds can show. Every result file, the table and the HTML report go
 * under `outDir`.
 */
import { join } from 'node:path';
import { YcsbClient } from '../client/ycsb-client.ts';
import { faultPolicyOf, withWorkloadBudget, type FaultPolicy, type OnError } from '../common/fault-policy.ts';
import { interrupts } from '../common/interrupts.ts';
import { flagOverrides } from '../common/option-parsers.ts';
import { isUserError, UsageError } from '../common/user-error.ts';
import { summarizeCells } from '../report/cell-statistics.ts';
import { renderComparisonTable, renderRunContext } from '../report/comparison-table.ts';
import { relativePrecision } from '../stats/summary.ts';
import { writeReportBeside } from '../report/report-files.ts';
import { renderYcsbText } from '../report/ycsb-text.ts';
import { runStoppedError } from '../results/run-stopped.ts';
import type { Result } from '../results/schema.ts';
import { verdictLine, verdictOf } from '../results/verdict.ts';
import { writeFileAtomic, writeResult } from '../results/write.ts';
import { loadConfig } from '../session/config-file.ts';
import type { ProcessesSetting } from '../session/process-count.ts';
import { defaultStores, StoreTargets } from '../session/store-targets.ts';
import { storeName } from '../stores/stores.ts';
import { loadWorkload, type LoadedWorkload } from '../workload/workload-file.ts';
import { COMPARE_DEFAULTS } from './defaults.ts';
import { loadChains, type LoadChain } from './load-chains.ts';
import { roundOrder, type Repetitions } from './rounds.ts';

export interface CompareOptions {
  /** Undefined: the config file's stores, else every local one. */
  stores?: string[];
  workloads: string[];
  /** Extra -P files (record-shape presets) applied after each workload file. */
  extraFiles: string[];
  overrides: string[];
  threads?: number;
  target?: number;
  /** Worker processes per run (`--processes`: a number, or auto). */
  processes?: ProcessesSetting;
  /** Rounds (`--repetitions`: a number, or auto); default COMPARE_DEFAULTS.repetitions. */
  repetitions?: Repetitions;
  /** The smallest difference called faster or slower, as a fraction (default COMPARE_DEFAULTS.minEffectPercent). */
  minEffect?: number;
  /** The seed of the rounds' store orders (default: drawn, and recorded in every result). */
  orderSeed?: number;
  outDir: string;
  status: boolean;
  /** Use the real servers of docker/compose.yaml (`docbench up --docker`) instead of the local ones. */
  docker?: boolean;
  /** `--url store=URL` values (a plain URL with one store). */
  url?: string[];
  /** Config file (default: ./docbench.config.json when it exists). */
  config?: string;
  /** `--on-error`: go on counting failures (default), or stop a run at its first. */
  onError?: OnError;
}

/**
 * YCSB's exporter/exportfile describe one run's output; a comparison writes many runs (YCSB text
 * on stdout, a JSON result each, the table), so one export file would be overwritten by each.
 */
function refuseSingleRunExport(p: {
  exporter: string;
  exportfile?: string | undefined;
  'hdrhistogram.fileoutput': boolean;
}): void {
  if (p['hdrhistogram.fileoutput'])
    throw new UsageError(
      "hdrhistogram.fileoutput=true: compare runs many workloads, whose logs would overwrite each other; use docbench run for HdrHistogram logs (each result file keeps every row's series)",
    );
  if (p.exportfile !== undefined)
    throw new UsageError(
      `exportfile=${p.exportfile}: compare writes one result file per run under --out-dir; use docbench run for a single exported run`,
    );
  if (p.exporter !== 'text')
    throw new UsageError(
      `exporter: compare prints YCSB text for every run and writes JSON results under --out-dir; use docbench run for the ${p.exporter} exporter`,
    );
}

export function runComparison(options: CompareOptions): Promise<Result[]> {
  // Interrupted, the rounds done are kept and the table is printed for them.
  return interrupts.holding(() => compare(options));
}

/** One round's place in the comparison, as every result of the round records it. */
interface RoundPlace {
  round: number;
  rounds: number | 'auto';
  order: string[];
  seed: number;
}

/** What the whole comparison shares while it runs. */
interface Comparison {
  options: CompareOptions;
  overrides: string[];
  faults: FaultPolicy;
  chains: LoadChain<LoadedWorkload>[];
  results: Result[];
  loads: Result[];
  /** A run its failures stopped ends the comparison (after its table) with that run's error. */
  stopped: Error | null;
  /** Stores that failed outside a run (unreachable, gone while a table was made): not run again. */
  skipped: { store: string; error: unknown }[];
  /** More than one round: each run's YCSB text stays in its result file, and stdout gets the table. */
  quietText: boolean;
}

async function compare(options: CompareOptions): Promise<Result[]> {
  const config = loadConfig(options.config);
  const stores = options.stores ?? defaultStores(config, COMPARE_DEFAULTS.stores);
  for (const store of stores) storeName(store, '--stores');
  const targets = StoreTargets.resolve(
    { url: options.url, config: options.config, docker: options.docker },
    stores,
    config,
  ).checkDocker();
  // --processes auto spreads the workers over the cores only when no store of the comparison runs here.
  const localStores = stores.filter((s) => targets.sourceOf(s) === 'local');
  // The config file's store settings first: the defaults and the user's -p come after and win.
  const overrides = [
    ...targets.settings(),
    ...COMPARE_DEFAULTS.overrides,
    ...options.overrides,
    ...flagOverrides(options),
  ];
  const { policy: faults, rest: workloadOverrides } = faultPolicyOf(overrides, options.onError);
  // Parse every workload before touching a store, so a typo fails in a second, not after a run.
  const workloads = options.workloads.map((w) => loadWorkload([w, ...options.extraFiles], workloadOverrides));
  for (const loaded of workloads) refuseSingleRunExport(loaded.properties);
  const repetitions = options.repetitions ?? COMPARE_DEFAULTS.repetitions;
  const seed = options.orderSeed ?? Math.floor(Math.random() * 2 ** 31);
  const c: Comparison = {
    options,
    overrides,
    faults,
    chains: loadChains(workloads, (w) => w.properties),
    results: [],
    loads: [],
    stopped: null,
    skipped: [],
    quietText: repetitions !== 1,
  };
  // One client per store for the whole comparison: its connections and worker processes are made once.
  const clients = new Map<string, YcsbClient>();
  try {
    for (let round = 1; ; round++) {
      if (interrupts.signal !== undefined || c.stopped) break;
      if (repetitions === 'auto' ? !needsAnotherRound(c, round) : round > repetitions) break;
      const order = roundOrder(stores, seed, round).filter((s) => !c.skipped.some((k) => k.store === s));
      if (order.length === 0) break;
      // The round's order, when there is one to tell (each run's line names its round too).
      if (options.status && repetitions !== 1 && stores.length > 1)
        process.stderr.write(
          `[compare] round ${round}${repetitions === 'auto' ? '' : ` of ${repetitions}`}: ${order.join(', ')}\n`,
        );
      const place: RoundPlace = { round, rounds: repetitions, order, seed };
      for (const store of order) {
        if (interrupts.signal !== undefined || c.stopped) break;
        let client = clients.get(store);
        try {
          if (client === undefined) {
            client = await YcsbClient.open({
              store,
              url: targets.urlOf(store),
              properties: workloads[0]!.properties,
              ...(options.processes !== undefined ? { processes: options.processes } : {}),
              localStores,
            });
            clients.set(store, client);
          }
          await runStore(c, client, place);
        } catch (error) {
          c.skipped.push(skip(store, error, stores.length));
        }
      }
    }
  } finally {
    for (const client of clients.values()) await client.close();
  }
  const { results, loads, skipped, stopped } = c;
  // Nothing ran (every store failed, or a signal came first): no table, no folder of nothing.
  if (results.length > 0 || (skipped.length === 0 && stopped === null && interrupts.signal === undefined)) {
    const table = renderComparisonTable(results, {
      minEffect: options.minEffect ?? COMPARE_DEFAULTS.minEffectPercent / 100,
    });
    const context = renderRunContext(results);
    process.stdout.write(`\n${table}\n${context}`);
    writeFileAtomic(join(options.outDir, 'comparison.md'), `${table}\n${context}`);
    process.stderr.write(`results written to ${options.outDir}\n`);
    writeReportBeside(options.outDir, [...results, ...loads]);
  }
  if (repetitions === 'auto' && results.length > 0) {
    const wide = imprecise(results);
    const rounds = Math.max(...results.map((r) => r.repetition?.round ?? 1));
    process.stderr.write(
      wide.length === 0
        ? `compare: after ${rounds} rounds every cell's throughput is known within ±${COMPARE_DEFAULTS.precision * 100}% (95% interval)\n`
        : `compare: after ${rounds} rounds (the most --repetitions auto runs) these cells are not known within ±${COMPARE_DEFAULTS.precision * 100}%: ${wide.join('; ')}\n`,
    );
  }
  if (interrupts.signal !== undefined)
    process.stderr.write(
      `docbench: interrupted by ${interrupts.signal}: the table holds the ${results.length} run(s) done\n`,
    );
  if (stopped) throw stopped;
  if (skipped.length > 0) throw skippedError(skipped, results.length);
  return results;
}

/** One store's turn in a round: each chain's fresh load, then its runs. */
async function runStore(c: Comparison, client: YcsbClient, place: RoundPlace): Promise<void> {
  const store = client.store;
  const suffix = place.rounds === 1 ? '' : `-r${place.round}`;
  for (const chain of c.chains) {
    if (interrupts.signal !== undefined || c.stopped) return;
    const common = (w: LoadedWorkload) => ({
      workload: w,
      status: c.options.status,
      overrides: c.overrides,
      faults: withWorkloadBudget(c.faults, w.properties),
      // Each round draws other keys: the same seed would replay the same operations.
      seedOffset: place.round - 1,
    });
    const tag = `[${store}${place.rounds === 1 ? '' : ` round ${place.round}`}`;
    const first = chain.load;
    const { result: loadResult } = await client.load({
      ...common(first),
      label: `${tag} ${first.name} load]`,
      table: 'fresh',
    });
    const loadName = `${store}-${first.name}${suffix}-load.json`;
    const load = withRound(loadResult, place);
    writeResult(join(c.options.outDir, loadName), load);
    c.loads.push(load);
    // A load cut short is no base for a run: its partial result is written, and the comparison ends there.
    if (loadResult.partial !== undefined) {
      process.stdout.write(`\n${renderYcsbText(loadResult)}`);
      c.stopped = runStoppedError(loadResult, `${store} ${first.name} load`);
      return;
    }
    for (const w of chain.runs) {
      if (interrupts.signal !== undefined || c.stopped) return;
      // The local server's own CPU and peak memory while the run phase ran (nothing for a remote store).
      const { result } = await client.run({ ...common(w), label: `${tag} ${w.name} run]`, serverCost: true });
      const runResult = withRound(result, place);
      writeResult(join(c.options.outDir, `${store}-${w.name}${suffix}-run.json`), runResult);
      if (!c.quietText) process.stdout.write(`\n${renderYcsbText(runResult)}`);
      process.stderr.write(
        `${tag} ${w.name}] ${w === chain.runs[0] ? `loaded ${loadResult.overall.operations} records in ${(loadResult.overall.runtimeMs / 1000).toFixed(1)} s; ` : ''}` +
          `ran ${runResult.overall.operations} operations at ${Math.round(runResult.overall.throughputOpsPerSec)} ops/s; verdict: ${verdictLine(verdictOf(runResult))}\n`,
      );
      c.results.push(runResult);
      c.stopped = runStoppedError(runResult, `${store} ${w.name} run`);
    }
  }
}

/** The result with the round it ran in and its store's place in that round (one round: as it was). */
function withRound(result: Result, place: RoundPlace): Result {
  if (place.rounds === 1) return result;
  return {
    ...result,
    repetition: {
      round: place.round,
      // auto: the most rounds it may take (how many it took is the cell's n).
      rounds: place.rounds === 'auto' ? COMPARE_DEFAULTS.maxRounds : place.rounds,
      position: place.order.indexOf(result.store.name) + 1,
      order: place.order,
      seed: place.seed,
    },
  };
}

/**
 * `--repetitions auto`: another round while some cell's throughput is not yet known within
 * ±precision of its median (at least the default number of rounds first, at most maxRounds).
 */
function needsAnotherRound(c: Comparison, round: number): boolean {
  if (round <= COMPARE_DEFAULTS.repetitions) return true;
  if (round > COMPARE_DEFAULTS.maxRounds) return false;
  return imprecise(c.results).length > 0;
}

/** The cells whose throughput interval is wider than ±precision of their median (or that have none). */
function imprecise(results: readonly Result[]): string[] {
  return (
    summarizeCells(results)
      // A cell no round measured validly never gets an interval: more rounds would not help it.
      .filter((cell) => cell.invalid < cell.runs)
      .filter((cell) => {
        const precision = relativePrecision(cell.throughput.overRepetitions);
        return precision === undefined || precision > COMPARE_DEFAULTS.precision;
      })
      .map((cell) => `${cell.workload} on ${cell.series}`)
  );
}

/** Say at once that a store is skipped (one line; with one store the command's error says it), and keep why for the end. */
function skip(store: string, error: unknown, stores: number): { store: string; error: unknown } {
  if (stores > 1) process.stderr.write(`docbench: ${store}: ${oneLine(error)}; its workloads were skipped\n`);
  return { store, error };
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);
}

/** The comparison's end when stores were skipped: the one store's own error when nothing ran, else a summary. */
function skippedError(skipped: readonly { store: string; error: unknown }[], ran: number): Error {
  const only = skipped[0]!;
  if (skipped.length === 1 && ran === 0 && isUserError(only.error)) return only.error;
  return new UsageError(
    `compare: ${skipped.map((s) => s.store).join(', ')} failed and ${skipped.length === 1 ? 'was' : 'were'} skipped (${skipped.map((s) => `${s.store}: ${oneLine(s.error)}`).join('; ')}); the table holds the ${ran} run(s) done`,
  );
}

/**
 * `docbench capacity`: for each store in turn, the highest target rate whose run keeps a latency
 * budget. Each search starts on a fresh load, then steps of the open model (YCSB's `target`), each
 * an ordinary run with its own warm-up and a measured window long enough for the percentile it
 * judges (plan.ts), stopped early once it is certain to miss (early-stop.ts), judged on the
 * `Intended-` rows and the error rate (report/capacity-curves.ts), the rates chosen by coarse
 * steps then a bisection, a step that did not hold tried again before the search brackets below
 * it (plan.ts). With `repetitions` > 1 the searches run in rounds: each round searches every
 * store once, in a fresh seeded random order (compare/rounds.ts), so whatever drifts on the
 * machine lands on every store in turn; every step records its round. Every step's result is
 * written as it completes, so an interrupted search keeps what it measured.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { ProcessesSetting } from '../session/process-count.ts';
import { judgeStep, CAPACITY, type StepJudgment } from '../report/capacity-curves.ts';
import { roundOrder } from '../compare/rounds.ts';
import type { Repetition, Result } from '../results/schema.ts';
import { formatLatencyBudget, highestPercentile, type Slo } from '../results/slo.ts';
import { writeResult } from '../results/write.ts';
import { interrupts } from '../common/interrupts.ts';
import { loadWorkload, type LoadedWorkload } from '../workload/workload-file.ts';
import { YcsbClient, type RunObserver } from '../client/ycsb-client.ts';
import { EarlyStop } from './early-stop.ts';
import { HttpSteps } from './http-steps.ts';
import { nextRate, retryRate, stepSeconds, type SearchSettings, type StepLengthSettings, type Tried } from './plan.ts';

export interface CapacityOptions {
  stores: readonly string[];
  /** A store's URL, or undefined for docbench's local server. */
  urlOf: (store: string) => string | undefined;
  workloadFiles: readonly string[];
  /** `-p` assignments (config file settings first); the command adds the steps' own. */
  overrides: readonly string[];
  slo: Slo;
  search: SearchSettings;
  length: StepLengthSettings;
  warmupSeconds: number;
  /** `--processes`: a number, or auto (session/process-count.ts). */
  processes?: ProcessesSetting;
  outDir: string;
  status: boolean;
  /** Watches each step as it runs (live metrics), besides the early stop. */
  observe?: (store: string, workload: string, step: number, target: number) => RunObserver | undefined;
  /** Told when a step's result is written (live metrics' verdict). */
  onStep?: (judgment: StepJudgment) => void;
  /** Told where each step's result was written. */
  onWritten?: (result: Result, path: string) => void;
  /** End to end: each step a k6 run against `docbench serve` with this many service processes (http-steps.ts). */
  http?: { serviceWorkers: number };
  /** Searches per store, in interleaved rounds (default 1). */
  repetitions?: number;
  /** The seed of the rounds' store orders (default: drawn, and recorded in every step's result). */
  orderSeed?: number;
}

/** Identifies one search among the results of a folder: when it started. */
function searchId(): string {
  return new Date().toISOString();
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The step's workload: the user's, at `rate` ops/s, warm-up then `seconds` measured, time-bounded only. */
function stepWorkload(options: CapacityOptions, rate: number, seconds: number): LoadedWorkload {
  const base = loadWorkload([...options.workloadFiles], [...options.overrides]).properties;
  // End to end, k6 keeps only the percentiles it is asked for: the judged ones among them.
  const percentiles = options.http
    ? [
        `hdrhistogram.percentiles=${[...new Set([...base['hdrhistogram.percentiles'], ...options.slo.clauses.map((c) => c.percentile)])].sort((a, b) => a - b).join(',')}`,
      ]
    : [];
  return loadWorkload(
    [...options.workloadFiles],
    [
      ...options.overrides,
      ...percentiles,
      `target=${rate}`,
      'operationcount=0',
      `warmuptime=${options.warmupSeconds}`,
      `maxexecutiontime=${options.warmupSeconds + seconds}`,
    ],
  );
}

/** One direct step: the run phase at the step's rate, stopped early once certain to miss. */
async function directStep(
  options: CapacityOptions,
  client: YcsbClient,
  loaded: LoadedWorkload,
  seedOffset: number,
  label: string,
  observer: RunObserver,
  early: EarlyStop,
): Promise<Result> {
  const { result } = await client.run({
    workload: loaded,
    label,
    status: options.status,
    overrides: [...options.overrides],
    workloadFile: options.workloadFiles.join(' '),
    observer,
    stopDetail: () => early.detail,
    seedOffset,
    serverCost: true,
  });
  return result;
}

/** Drop, create and load the table (the step's properties: recordcount, threads, record shape). */
async function freshLoad(
  client: YcsbClient,
  options: CapacityOptions,
  loaded: LoadedWorkload,
  label: string,
): Promise<void> {
  const { result } = await client.load({
    workload: loaded,
    label,
    status: options.status,
    overrides: [...options.overrides],
    table: 'fresh',
  });
  if (result.partial !== undefined) throw new Error(`the load was stopped (${result.partial.reason})`);
}

/**
 * The seed offset of a step: each step draws other keys than the one before, and each round other
 * keys than the round before (a search has at most maxSteps steps).
 */
function seedOffset(options: CapacityOptions, place: Repetition | undefined, step: number): number {
  return ((place?.round ?? 1) - 1) * options.search.maxSteps + step;
}

function formatLoad(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

/** Search every store, in rounds; returns every step's result (judged again by whoever reads them). */
export async function runCapacity(options: CapacityOptions): Promise<Result[]> {
  const search = searchId();
  const rounds = options.repetitions ?? 1;
  const seed = options.orderSeed ?? Math.floor(Math.random() * 2 ** 31);
  const results: Result[] = [];
  for (let round = 1; round <= rounds && interrupts.signal === undefined; round++) {
    const order = roundOrder(options.stores, seed, round);
    if (rounds > 1 && options.status) log(`[capacity] round ${round} of ${rounds}: ${order.join(', ')}`);
    for (const [i, store] of order.entries()) {
      if (interrupts.signal !== undefined) break;
      const place: Repetition | undefined = rounds > 1 ? { round, rounds, position: i + 1, order, seed } : undefined;
      results.push(...(await searchStore(options, store, search, place)));
    }
  }
  return results;
}

/**
 * One search of one store: a fresh load, then steps until the plan ends. Every search reloads, so
 * none runs on the table another left behind (its updates, a compaction it set off).
 */
async function searchStore(
  options: CapacityOptions,
  store: string,
  search: string,
  place: Repetition | undefined,
): Promise<Result[]> {
  const results: Result[] = [];
  const percentile = highestPercentile(options.slo.clauses);
  const first = stepWorkload(options, options.search.start, options.length.minSeconds);
  const p0 = first.properties;
  // Each step starts the workload's insert keys again from recordcount: a workload that inserts
  // gets a fresh load before every step, or its inserts would find their keys taken.
  const inserts = p0.insertproportion > 0;
  // Auto spreads the workers over the cores only when no store of the search runs here; end to
  // end, the service's processes are the client, and the load runs on this event loop.
  const client = await YcsbClient.open({
    store,
    url: options.urlOf(store),
    properties: p0,
    ...(options.processes !== undefined ? { processes: options.processes } : {}),
    localStores: options.stores.filter((s) => options.urlOf(s) === undefined),
    workerProcesses: !options.http,
  });
  let http: HttpSteps | undefined;
  const tag = place ? `${store} round ${place.round}` : store;
  const prefix = place ? `${store}-r${place.round}` : store;
  try {
    const tried: Tried[] = [];
    for (let step = 1; interrupts.signal === undefined; step++) {
      const rate = nextRate(tried, options.search);
      if (rate === undefined) break;
      const { seconds, short } = stepSeconds(rate, percentile, options.length);
      const loaded = stepWorkload(options, rate, seconds);
      const p = loaded.properties;
      // A retry comes right after its rate's failure (plan.ts): the same rate as the step before.
      const attempt = 1 + tried.filter((t) => t.targetOpsPerSec === rate).length;
      const label = `[${tag} capacity step ${step}: ${rate.toLocaleString('en-US')} ops/s${attempt > 1 ? `, try ${attempt}` : ''}`;
      if (step === 1 || inserts) await freshLoad(client, options, loaded, `${label} load]`);
      if (options.http && http === undefined) {
        http = await HttpSteps.start({
          store,
          url: options.urlOf(store) ?? client.opened.url,
          workloadFiles: options.workloadFiles,
          overrides: options.overrides,
          threads: p.threadcount,
          serviceWorkers: options.http.serviceWorkers,
          quiet: !options.status,
        });
      }
      const loadBefore = formatLoad();
      const early = new EarlyStop(options.slo, rate * seconds);
      const other = options.observe?.(store, loaded.name, step, rate);
      const observer: RunObserver = {
        second: (rows, recording, control) => {
          other?.second(rows, recording, control);
          early.second(rows, recording, control);
        },
      };
      const result = http
        ? await http.step(p, options.warmupSeconds, seconds)
        : await directStep(options, client, loaded, seedOffset(options, place, step), `${label}]`, observer, early);
      Object.assign(result.workload.properties, {
        [CAPACITY.search]: search,
        [CAPACITY.step]: step,
        [CAPACITY.slo]: formatLatencyBudget(options.slo.clauses),
        [CAPACITY.errorBudget]: options.slo.errorBudget,
        [CAPACITY.loadAverage]: `${loadBefore} / ${formatLoad()}`,
      });
      result.notes.push(
        `capacity step ${step}: ${rate.toLocaleString('en-US')} ops/s offered (open model${http ? ", end to end: k6's constant-arrival-rate executor against docbench serve" : ''}), ${options.warmupSeconds} s warm-up, ${seconds} s measured` +
          `${short ? ` (p${percentile} wants ${Math.ceil(100 / ((1 - percentile / 100) * rate))} s at this rate: its estimate rests on fewer than 100 samples beyond it)` : ''}` +
          `; machine load average (1, 5, 15 min) before / after: ${loadBefore} / ${formatLoad()}${inserts ? '; a fresh load before the step (the workload inserts)' : ''}` +
          `${attempt > 1 ? `; try ${attempt} at this rate: the step before it did not hold` : ''}` +
          `${place ? `; search ${place.round} of ${place.rounds}, place ${place.position} in its round's order (${place.order.join(', ')})` : ''}`,
      );
      if (place) result.repetition = place;
      const path = join(options.outDir, `${prefix}-step${String(step).padStart(2, '0')}-${rate}.json`);
      writeResult(path, result);
      options.onWritten?.(result, path);
      results.push(result);
      const judgment = judgeStep(result);
      options.onStep?.(judgment);
      log(
        `${label}] ${judgment.held ? 'held' : `did not hold: ${judgment.why.join('; ')}`}; ${judgment.judged.map((j) => `${j.row} p${j.percentile} ${j.valueUs} µs`).join(', ')}`,
      );
      tried.push({ targetOpsPerSec: rate, held: judgment.held });
      // An invalid run measured no store work: the rates around it would not either.
      if (!judgment.valid) {
        log(`[${tag} capacity] stopped: step ${step} is not a measurement of the store (${judgment.why[0]})`);
        break;
      }
      if (retryRate(tried, options.search.retries) !== undefined && tried.length < options.search.maxSteps)
        log(`[${tag} capacity] trying ${rate.toLocaleString('en-US')} ops/s again before bracketing below it`);
    }
  } finally {
    await http?.close();
    await client.close();
  }
  return results;
}

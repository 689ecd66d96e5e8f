/**
 * `docbench capacity --stores redis,cassandra -P workloada --slo "p99<=5ms"`: the commander wiring
 * of the capacity search (src/capacity/). Every flag is checked before any store is touched.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { join } from 'node:path';
import { parseErrorBudget, parseLatencyBudget, DEFAULT_ERROR_BUDGET, SloError } from '../results/slo.ts';
import { storeName } from '../stores/stores.ts';
import { UsageError } from './errors.ts';
import {
  collect,
  list,
  nonNegativeInteger,
  nonNegativeNumber,
  positiveInteger,
  processesSetting,
} from '../common/option-parsers.ts';
import type { ProcessesSetting } from '../session/process-count.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { addMetricsOptions, withMetrics, type MetricsFlags } from './metrics-flags.ts';

/** Defaults a capacity search starts from (the user's -p come after and win). */
export const CAPACITY_DEFAULTS = {
  /** A step lasts seconds, not minutes: its per-operation series is kept every second. */
  overrides: ['recordcount=10000', 'status.interval=1'],
  /**
   * Workers keeping operations in flight: an open model needs about rate × latency of them, and
   * a Node worker costs nothing while it waits, so many more than a closed run's.
   */
  threads: 64,
  start: 1000,
  precision: 10,
  warmup: 3,
  minSeconds: 5,
  maxSeconds: 60,
  maxSteps: 20,
  maxRate: 1_000_000,
  /** A step that did not hold is tried once more at its rate before the search brackets below it. */
  retries: 1,
  repetitions: 1,
};

interface CapacityFlags extends MetricsFlags {
  stores: string[];
  url?: string[];
  config?: string;
  workload: string[];
  property: string[];
  slo: string;
  errorBudget: string;
  threads: number;
  processes?: ProcessesSetting;
  start: number;
  maxRate: number;
  precision: number;
  warmup: number;
  minSeconds: number;
  maxSeconds: number;
  maxSteps: number;
  retries: number;
  repetitions: number;
  orderSeed?: number;
  http: boolean;
  serviceWorkers: number;
  outDir?: string;
  quiet: boolean;
}

const positiveNumber = (flag: string) => (value: string) => {
  const n = Number(value.replace(/_/g, ''));
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError(`${flag} expects a number > 0, got "${value}"`);
  return n;
};

/** A commander parser that turns a budget mistake into commander's one-line error. */
function sloArgument(value: string): string {
  try {
    parseLatencyBudget(value);
  } catch (error) {
    if (error instanceof SloError) throw new InvalidArgumentError(error.message.replace(/^--slo: /, ''));
    throw error;
  }
  return value;
}

export function registerCapacityCommand(program: Command): void {
  const command = program
    .command('capacity')
    .description(
      'the highest target rate each store keeps within a latency budget (open model, coarse steps then bisection); the latency curve in the report',
    )
    .requiredOption('--stores <list>', 'comma-separated stores, searched one after the other at the same budget', list);
  addTargetOptions(command, { several: true })
    .requiredOption(
      '--slo <budget>',
      'latency budget on the Intended- (coordinated-omission corrected) latency of every operation kind: "p99<=5ms", several with commas, one kind with READ:p99.9<=20ms',
      sloArgument,
    )
    .option(
      '--error-budget <share>',
      `share of operations that may fail in a step that holds, 0.1% or 0.001 (default ${DEFAULT_ERROR_BUDGET * 100}%)`,
      `${DEFAULT_ERROR_BUDGET * 100}%`,
    )
    .option(
      '-P, --workload <file>',
      'workload file (workloada … workloadh, record-10kb, a path); repeatable',
      collect,
      [],
    )
    .option(
      '-p, --property <key=value>',
      `property override; repeatable (defaults: ${CAPACITY_DEFAULTS.overrides.join(' ')})`,
      collect,
      [],
    )
    .option(
      '--threads <n>',
      `workers keeping operations in flight (default ${CAPACITY_DEFAULTS.threads})`,
      positiveInteger('--threads'),
      CAPACITY_DEFAULTS.threads,
    )
    .option(
      '--processes <n|auto>',
      'worker processes (threads) the workers are spread over; auto (the default): one per core when every store is remote, else 1',
      processesSetting('--processes'),
    )
    .option(
      '--start <ops>',
      `first rate tried, ops/s (default ${CAPACITY_DEFAULTS.start})`,
      positiveNumber('--start'),
      CAPACITY_DEFAULTS.start,
    )
    .option(
      '--max-rate <ops>',
      'never try above this rate, ops/s',
      positiveNumber('--max-rate'),
      CAPACITY_DEFAULTS.maxRate,
    )
    .option(
      '--precision <percent>',
      `stop when the rate that failed is within this % of the one that held (default ${CAPACITY_DEFAULTS.precision})`,
      positiveNumber('--precision'),
      CAPACITY_DEFAULTS.precision,
    )
    .option(
      '--warmup <s>',
      `seconds of each step run before measuring (default ${CAPACITY_DEFAULTS.warmup})`,
      nonNegativeNumber('--warmup'),
      CAPACITY_DEFAULTS.warmup,
    )
    .option(
      '--min-seconds <s>',
      `shortest measured window of a step (default ${CAPACITY_DEFAULTS.minSeconds})`,
      positiveInteger('--min-seconds'),
      CAPACITY_DEFAULTS.minSeconds,
    )
    .option(
      '--max-seconds <s>',
      `longest measured window of a step (default ${CAPACITY_DEFAULTS.maxSeconds})`,
      positiveInteger('--max-seconds'),
      CAPACITY_DEFAULTS.maxSeconds,
    )
    .option(
      '--max-steps <n>',
      `steps per store at most (default ${CAPACITY_DEFAULTS.maxSteps})`,
      positiveInteger('--max-steps'),
      CAPACITY_DEFAULTS.maxSteps,
    )
    .option(
      '--retries <n>',
      `a step that did not hold is tried again at its rate up to n times before the search brackets below it; 0: never (default ${CAPACITY_DEFAULTS.retries})`,
      nonNegativeInteger('--retries'),
      CAPACITY_DEFAULTS.retries,
    )
    .option(
      '--repetitions <n>',
      `searches per store, in rounds: each round searches every store once, the stores in a fresh random order; each store's capacity is then the median [min–max] of its searches, marked unstable when they disagree (default ${CAPACITY_DEFAULTS.repetitions})`,
      positiveInteger('--repetitions'),
      CAPACITY_DEFAULTS.repetitions,
    )
    .option(
      '--order-seed <n>',
      "seed of the rounds' store orders (default: drawn; every step's result records it)",
      nonNegativeInteger('--order-seed'),
    )
    .option(
      '--http',
      "end to end: each step k6's constant-arrival-rate executor against docbench serve (judged on k6's request durations, dropped iterations counted as failures)",
      false,
    )
    .option(
      '--service-workers <n>',
      'with --http: service processes (node cluster)',
      positiveInteger('--service-workers'),
      1,
    )
    .option(
      '--out-dir <dir>',
      'where step results, capacity.json, capacity.md and report.html go (default: results/capacity-<timestamp>)',
    )
    .option('-q, --quiet', 'no status lines on stderr', false);
  addMetricsOptions(command).action(async (opts: CapacityFlags) => {
    for (const store of opts.stores) storeName(store, '--stores');
    if (opts.stores.length === 0) throw new UsageError('--stores: name at least one store');
    if (opts.minSeconds > opts.maxSeconds)
      throw new UsageError(`--min-seconds (${opts.minSeconds}) exceeds --max-seconds (${opts.maxSeconds})`);
    if (opts.start > opts.maxRate) throw new UsageError(`--start (${opts.start}) exceeds --max-rate (${opts.maxRate})`);
    for (const key of opts.property) {
      if (/^(target|operationcount|maxexecutiontime|warmuptime)=/.test(key))
        throw new UsageError(
          `-p ${key}: the capacity search sets it for each step; use --start, --min-seconds, --max-seconds, --warmup`,
        );
    }
    if (opts.http && opts.processes !== undefined)
      throw new UsageError(
        '--processes spreads direct workers; with --http, k6 drives the service: use --service-workers',
      );
    // The search's modules load once the command runs: `docbench --help` stays light.
    const [{ loadConfig }, { StoreTargets }, { loadWorkload }, { capacityCommand }] = await Promise.all([
      import('../session/config-file.ts'),
      import('../session/store-targets.ts'),
      import('../workload/workload-file.ts'),
      import('../capacity/command.ts'),
    ]);
    const config = loadConfig(opts.config);
    const targets = StoreTargets.resolve({ url: opts.url, config: opts.config }, opts.stores, config);
    const overrides = [
      ...targets.settings(),
      ...CAPACITY_DEFAULTS.overrides,
      ...opts.property,
      `threadcount=${opts.threads}`,
    ];
    const slo = { clauses: parseLatencyBudget(opts.slo), errorBudget: parseErrorBudget(opts.errorBudget) };
    // The workload parses before any store is touched: a typo fails in a second.
    const p = loadWorkload(opts.workload, overrides).properties;
    if (p['measurement.interval'] === 'op')
      throw new UsageError(
        'measurement.interval=op: the capacity search judges the Intended- latency; use both (the default) or intended',
      );
    if (p.exportfile !== undefined || p['hdrhistogram.fileoutput'])
      throw new UsageError(
        "exportfile and hdrhistogram.fileoutput name one run's output; each capacity step writes its result (with its per-operation series) under --out-dir",
      );
    await withMetrics(opts, (metrics) =>
      capacityCommand({
        ...(metrics ? { metrics } : {}),
        stores: opts.stores,
        urlOf: (store) => targets.urlOf(store),
        workloadFiles: opts.workload,
        overrides,
        slo,
        search: {
          start: opts.start,
          growth: 2,
          precision: opts.precision / 100,
          maxRate: opts.maxRate,
          minRate: 1,
          maxSteps: opts.maxSteps,
          retries: opts.retries,
        },
        repetitions: opts.repetitions,
        ...(opts.orderSeed !== undefined ? { orderSeed: opts.orderSeed } : {}),
        length: { minSeconds: opts.minSeconds, maxSeconds: opts.maxSeconds },
        warmupSeconds: opts.warmup,
        ...(opts.processes !== undefined ? { processes: opts.processes } : {}),
        outDir: opts.outDir ?? join('results', `capacity-${new Date().toISOString().replace(/[:.]/g, '-')}`),
        status: !opts.quiet,
        ...(opts.http ? { http: { serviceWorkers: opts.serviceWorkers } } : {}),
      }),
    );
  });
}

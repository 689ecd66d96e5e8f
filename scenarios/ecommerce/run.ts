/**
 * Running a workload: `threadcount` workers (closed model), or a fixed schedule at `target`
 * ops/s with intended-time latency, exactly as the YCSB runner does it (src/runner/phases.ts),
 * but for scenario operations instead of YCSB records.
 *
 * Every dialect call is timed here and nowhere else, under its operation's row (PAGINATION,
 * JOIN, CUSTOMER-INSERT, …) in an HDR histogram, with `Intended-` rows under a target rate.
 * Every answer is checked against the oracle right after it arrives (the VERIFY row); the
 * checks are lookups in precomputed tables (a document read regenerates the document), so all
 * answers are checked. The first wrong answer stops the run: numbers from a store that answers
 * wrongly are not worth reporting.
 */
import { setImmediate as yieldToEventLoop, setTimeout as sleep } from 'node:timers/promises';
import { Measurements } from '../../src/measure/measurements.ts';
import { StatusReporter } from '../../src/measure/status-reporter.ts';
import type { Status } from '../../src/measure/status.ts';
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import { CpuMeter } from '../../src/runner/cpu-meter.ts';
import { UnsupportedError } from '../../src/stores/store.ts';
import { DiscreteGenerator } from '../../src/workload/generators/discrete.ts';
import { Random } from '../../src/workload/random.ts';
import type { EcommerceDialect } from './dialect.ts';
import { customerPatch, generateCustomer } from './generator.ts';
import { customerId, orderId, type Dataset } from './model.ts';
import type { EcommerceOracle } from './oracle.ts';
import { operationRow, ParameterChooser, type OperationName, type QueryKind } from './queries.ts';
import type { EcommerceSettings } from './settings.ts';
import type { SignupLedger } from './signups.ts';

export interface WorkloadRunOptions {
  dialect: EcommerceDialect;
  /** Store name, for mismatch messages. */
  store: string;
  dataset: Dataset;
  oracle: EcommerceOracle;
  signups: SignupLedger;
  proportions: readonly [OperationName, number][];
  /** The variant each query kind runs as in this run. */
  variants: Readonly<Partial<Record<QueryKind, string>>>;
  settings: EcommerceSettings;
  /** Print status lines on stderr. */
  status: boolean;
  label: string;
}

export interface WorkloadRunOutcome {
  outcome: PhaseOutcome;
  /** The first wrong answer, naming store, operation, parameters, expected and got. */
  mismatch?: string;
}

/** One worker's view of the clock: when its current operation was due. */
interface WorkerClock {
  intendedMs: number;
}

export async function runWorkload(options: WorkloadRunOptions): Promise<WorkloadRunOutcome> {
  const { dialect, dataset, oracle, signups, settings: s } = options;
  const measurements = new Measurements(s['measurement.interval'] !== 'intended', s['measurement.interval'] !== 'op');
  const random = new Random(s.seed);
  const chooser = new ParameterChooser(dataset, random, s);
  const operations = new DiscreteGenerator<OperationName>(random, options.proportions);
  const limit = s.operationcount > 0 ? s.operationcount : Number.POSITIVE_INFINITY;
  let updateVersion = 0;
  let issued = 0;
  let stopped = false;
  let mismatch: string | undefined;
  // UNSUPPORTED is a property of the target and the operation, not of the parameters: once every
  // operation of the mix has answered UNSUPPORTED and none anything else, further calls only
  // repeat that answer (millions of times a minute), so the run stops and says why.
  const unsupported = new Map<OperationName, string>();
  let supportedSeen = false;
  let allUnsupported: string | undefined;

  /** Time one dialect call; returns its value, or undefined when it failed. */
  async function timed<T>(operation: OperationName, clock: WorkerClock, call: () => Promise<T>, isFound: (value: T) => boolean = () => true): Promise<T | undefined> {
    const start = performance.now();
    let status: Status;
    let value: T | undefined;
    let failure: unknown;
    try {
      value = await call();
      status = isFound(value) ? 'OK' : 'NOT_FOUND';
      supportedSeen = true;
    } catch (error) {
      status = error instanceof UnsupportedError ? 'UNSUPPORTED' : 'ERROR';
      failure = error;
      value = undefined;
      if (status === 'UNSUPPORTED') {
        if (!unsupported.has(operation)) unsupported.set(operation, error instanceof Error ? error.message : String(error));
        if (!supportedSeen && allUnsupported === undefined && unsupported.size === options.proportions.length) {
          allUnsupported = [...unsupported].map(([op, why]) => `${operationRow(op)}: ${why}`).join('; ');
          stopped = true;
        }
      } else {
        supportedSeen = true;
      }
    }
    measurements.measure(operationRow(operation), status, clock.intendedMs, start, performance.now(), failure);
    return status === 'OK' ? value : undefined;
  }

  /** Record a check; the first failed one stops the run and is kept for the caller to raise. */
  function check(operation: OperationName, params: unknown, verify: () => string | undefined): void {
    const start = performance.now();
    const problem = verify();
    const ms = performance.now() - start;
    if (problem === undefined) {
      measurements.measureCheck('OK', ms);
      return;
    }
    const kind = operation === 'pagination' || operation === 'join' ? operation : undefined;
    const variant = kind ? ` [${options.variants[kind]}]` : '';
    const message = `${options.store}${variant} ${operationRow(operation)} ${JSON.stringify(params)}: ${problem}`;
    measurements.measureCheck('UNEXPECTED_STATE', ms, message);
    if (mismatch === undefined) mismatch = message;
    stopped = true;
  }

  async function doOperation(operation: OperationName, clock: WorkerClock): Promise<void> {
    switch (operation) {
      case 'pagination': {
        const params = chooser.page();
        const view = signups.view(params.country, dialect.readsOwnWrites);
        const ids = await timed(operation, clock, () => dialect.pagination(options.variants.pagination!, params));
        if (ids !== undefined) check(operation, params, () => oracle.checkPage(params, ids, view));
        return;
      }
      case 'join': {
        const params = chooser.join();
        const rows = await timed(operation, clock, () => dialect.join(options.variants.join!, params));
        if (rows !== undefined) check(operation, params, () => oracle.checkJoin(params, rows));
        return;
      }
      case 'customer-read': {
        const index = chooser.customerIndex();
        const id = customerId(index);
        const doc = await timed(operation, clock, () => dialect.readCustomer(id), (d) => d !== null);
        if (doc !== undefined) check(operation, { id }, () => oracle.checkCustomer(index, doc));
        return;
      }
      case 'order-read': {
        const { customer, order } = chooser.orderOf();
        const id = orderId(customer, order);
        const doc = await timed(operation, clock, () => dialect.readOrder(id), (d) => d !== null);
        if (doc !== undefined) check(operation, { id }, () => oracle.checkOrder(customer, order, doc));
        return;
      }
      case 'customer-update': {
        const index = chooser.customerIndex();
        const patch = customerPatch(dataset.seed, index, ++updateVersion);
        await timed(operation, clock, () => dialect.updateCustomer(customerId(index), patch), (found) => found);
        return;
      }
      case 'customer-insert': {
        const index = await signups.allocate();
        const customer = generateCustomer(dataset, index);
        signups.sent(index);
        const done = await timed(operation, clock, async () => {
          await dialect.insertCustomer(customer);
          return true;
        });
        if (done) signups.acknowledged(index);
        return;
      }
    }
  }

  const reporter = new StatusReporter(measurements, {
    intervalSeconds: s['status.interval'],
    totalOperations: s.operationcount,
    maxSeconds: s.maxexecutiontime,
    label: options.label,
  });
  const timers: NodeJS.Timeout[] = [];
  const startedAt = new Date();
  const startMs = performance.now();
  let measureStartMs = startMs;
  const cpuMeter = new CpuMeter();
  if (s.warmuptime > 0) {
    measurements.recording = false;
    timers.push(
      setTimeout(() => {
        measurements.recording = true;
        measureStartMs = performance.now();
        cpuMeter.restart();
      }, s.warmuptime * 1000),
    );
  }
  if (s.maxexecutiontime > 0) timers.push(setTimeout(() => (stopped = true), s.maxexecutiontime * 1000));
  if (options.status) reporter.start();

  // Milliseconds between two operations of one worker under a target rate.
  const tickMs = s.target > 0 ? (s.threadcount * 1000) / s.target : 0;
  const worker = async (index: number) => {
    const clock: WorkerClock = { intendedMs: 0 };
    const scheduleStart = startMs + (tickMs * index) / s.threadcount;
    let done = 0;
    while (!stopped && issued < limit) {
      issued++;
      if (tickMs > 0) {
        clock.intendedMs = scheduleStart + done * tickMs;
        const wait = clock.intendedMs - performance.now();
        if (wait >= 1) await sleep(wait);
        if (stopped) break;
      } else {
        clock.intendedMs = performance.now();
      }
      await doOperation(operations.nextValue(), clock);
      measurements.completeOperation(performance.now() - clock.intendedMs);
      done++;
      if ((done & 1023) === 0) await yieldToEventLoop();
    }
  };
  try {
    // A worker that throws (outside the timed calls: a sign-up's manifest write) stops the
    // others too, and the run fails only once all have finished with the store.
    const settled = await Promise.allSettled(
      Array.from({ length: s.threadcount }, (_, i) =>
        worker(i).catch((error: unknown) => {
          stopped = true;
          throw error;
        }),
      ),
    );
    const failed = settled.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
  } finally {
    for (const t of timers) clearTimeout(t);
    if (options.status) reporter.stop();
  }

  const endMs = performance.now();
  const cpu = cpuMeter.read();
  const notes: string[] = [];
  if (!measurements.recording) notes.push(`the run ended before warmuptime (${s.warmuptime} s) was over: nothing was recorded`);
  if (s.warmuptime > 0) notes.push(`the first ${s.warmuptime} s (${measurements.warmupOperations} operations) were warm-up, excluded from statistics`);
  if (mismatch !== undefined) notes.push(`stopped at the first answer the oracle rejected: ${mismatch}`);
  if (allUnsupported !== undefined) notes.push(`stopped after ${issued} operations: every operation of this workload is UNSUPPORTED on this target (${allUnsupported})`);
  return {
    outcome: {
      phase: 'run',
      measurements,
      startedAt,
      endedAt: new Date(),
      runtimeMs: measurements.recording ? endMs - measureStartMs : 0,
      timeSeries: reporter.series,
      cpu,
      recordsLoaded: 0,
      notes,
    },
    ...(mismatch !== undefined ? { mismatch } : {}),
  };
}

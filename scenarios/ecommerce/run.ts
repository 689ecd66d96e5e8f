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
import { Measurements } from '../../src/measure/measurements.ts';
import { timed } from '../../src/measure/timed.ts';
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import { runScheduled, RunControl } from '../../src/runner/schedule.ts';
import { DiscreteGenerator } from '../../src/workload/generators/discrete.ts';
import { Random } from '../../src/workload/random.ts';
import type { EcommerceDialect } from './dialect.ts';
import { customerPatch, generateCustomer } from './generator.ts';
import { customerId, orderId, type Customer, type Dataset } from './model.ts';
import type { EcommerceOracle } from './oracle.ts';
import { isQueryKind, operationRow, ParameterChooser, READBACK_ROW, type OperationName, type QueryKind } from './queries.ts';
import { callQuery, checkQuery, signupSnapshot } from './query-checks.ts';
import { WriteLedger } from './readback.ts';
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
  const control = new RunControl();
  const writes = new WriteLedger(dataset.seed, s.seed, s.readbacksample);
  let updateVersion = 0;
  let mismatch: string | undefined;
  // UNSUPPORTED is a property of the target and the operation, not of the parameters: once every
  // operation of the mix has answered UNSUPPORTED and none anything else, further calls only
  // repeat that answer (millions of times a minute), so the run stops and says why.
  const unsupported = new Map<OperationName, string>();
  let supportedSeen = false;
  let allUnsupported: string | undefined;

  /** Time one dialect call; returns its value, or undefined when it failed. */
  async function timedCall<T>(operation: OperationName, clock: WorkerClock, call: () => Promise<T>, isFound: (value: T) => boolean = () => true): Promise<T | undefined> {
    const t = await timed(call, (value) => (isFound(value) ? 'OK' : 'NOT_FOUND'));
    if (t.status === 'UNSUPPORTED') {
      if (!unsupported.has(operation)) unsupported.set(operation, t.error instanceof Error ? t.error.message : String(t.error));
      if (!supportedSeen && allUnsupported === undefined && unsupported.size === options.proportions.length) {
        allUnsupported = [...unsupported].map(([op, why]) => `${operationRow(op)}: ${why}`).join('; ');
        control.stop();
      }
    } else {
      supportedSeen = true;
    }
    measurements.measure(operationRow(operation), t.status, clock.intendedMs, t.startMs, t.endMs, t.error);
    return t.status === 'OK' ? t.value : undefined;
  }

  /** Read a written customer back (timed as READBACK) and check it; failures count as the row's, not as the write's. */
  async function readBack(index: number, clock: WorkerClock, verify: (doc: Customer | null) => string | undefined, what: OperationName): Promise<void> {
    const t = await timed(() => dialect.readCustomer(customerId(index)), (d) => (d === null ? 'NOT_FOUND' : 'OK'));
    measurements.measure(READBACK_ROW, t.status, clock.intendedMs, t.startMs, t.endMs, t.error);
    if (t.status === 'OK' || t.status === 'NOT_FOUND') check(what, { readBack: customerId(index) }, () => verify((t.value as Customer | null | undefined) ?? null));
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
    const kind = isQueryKind(operation) ? operation : undefined;
    const variant = kind ? ` [${options.variants[kind]}]` : '';
    const message = `${options.store}${variant} ${operationRow(operation)} ${JSON.stringify(params)}: ${problem}`;
    measurements.measureCheck('UNEXPECTED_STATE', ms, message);
    if (mismatch === undefined) mismatch = message;
    control.stop();
  }

  async function doOperation(operation: OperationName, clock: WorkerClock): Promise<void> {
    switch (operation) {
      case 'customer-read': {
        const index = chooser.customerIndex();
        const id = customerId(index);
        const doc = await timedCall(operation, clock, () => dialect.readCustomer(id), (d) => d !== null);
        if (doc !== undefined) check(operation, { id }, () => oracle.checkCustomer(index, doc));
        return;
      }
      case 'order-read': {
        const { customer, order } = chooser.orderOf();
        const id = orderId(customer, order);
        const doc = await timedCall(operation, clock, () => dialect.readOrder(id), (d) => d !== null);
        if (doc !== undefined) check(operation, { id }, () => oracle.checkOrder(customer, order, doc));
        return;
      }
      case 'customer-update': {
        const index = chooser.customerIndex();
        const version = ++updateVersion;
        const patch = customerPatch(dataset.seed, index, version);
        const ticket = writes.updateSent(index, version);
        const found = await timedCall(operation, clock, () => dialect.updateCustomer(customerId(index), patch), (f) => f);
        writes.updateDone(ticket);
        if (found === true && writes.sample()) await readBack(index, clock, (doc) => oracle.checkUpdated(index, doc, writes.allowedAfter(ticket)), operation);
        return;
      }
      case 'customer-insert': {
        const index = await signups.allocate();
        const customer = generateCustomer(dataset, index);
        signups.sent(index);
        const done = await timedCall(operation, clock, async () => {
          await dialect.insertCustomer(customer);
          return true;
        });
        if (done) signups.acknowledged(index);
        if (done && writes.sample()) await readBack(index, clock, (doc) => oracle.checkInserted(index, doc), operation);
        return;
      }
      default: {
        // The queries: pagination, JOIN and YCSB-JSON's others (query-checks.ts).
        const kind: QueryKind = operation;
        const params = chooser.draw(kind);
        const snapshot = signupSnapshot(kind, params, oracle, signups, dialect.readsOwnWrites);
        const answer = await timedCall(operation, clock, () => callQuery(dialect, kind, options.variants[kind]!, params));
        if (answer !== undefined) check(operation, params, () => checkQuery(kind, oracle, params, answer, snapshot));
      }
    }
  }

  const run = await runScheduled({
    measurements,
    settings: {
      threadcount: s.threadcount,
      target: s.target,
      operationcount: s.operationcount,
      maxexecutiontime: s.maxexecutiontime,
      warmuptime: s.warmuptime,
      statusIntervalSeconds: s['status.interval'],
    },
    status: options.status,
    label: options.label,
    control,
    worker: () => {
      const clock: WorkerClock = { intendedMs: 0 };
      return (intendedMs) => {
        clock.intendedMs = intendedMs;
        return doOperation(operations.nextValue(), clock);
      };
    },
  });
  const notes = run.notes;
  if (mismatch !== undefined) notes.push(`stopped at the first answer the oracle rejected: ${mismatch}`);
  if (allUnsupported !== undefined) notes.push(`stopped after ${control.issued} operations: every operation of this workload is UNSUPPORTED on this target (${allUnsupported})`);
  return {
    outcome: { phase: 'run', measurements, ...run, recordsLoaded: 0 },
    ...(mismatch !== undefined ? { mismatch } : {}),
  };
}

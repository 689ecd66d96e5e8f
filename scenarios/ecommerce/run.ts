/**
 * Running a workload: `threadcount` workers (closed model), or a fixed schedule at `target`
 * ops/s with intended-time latency, on the same run loop as the YCSB runner
 * (src/runner/schedule.ts), but for scenario operations instead of YCSB records. With a
 * ProcessPool the workers are spread over its worker threads, as YCSB runs are, each thread
 * with its own connections, dialect, oracle and parameter stream, and one merged result.
 *
 * Every dialect call is timed here and nowhere else, under its operation's row (PAGINATION,
 * JOIN, CUSTOMER-INSERT, …) in an HDR histogram, with `Intended-` rows under a target rate.
 * Every answer is checked against the oracle right after it arrives (the VERIFY row); the
 * checks are lookups in precomputed tables (a document read regenerates the document), so all
 * answers are checked. The first wrong answer stops the run (in every process): numbers from a
 * store that answers wrongly are not worth reporting.
 *
 * A sample of the writes is read back and checked (READBACK row; readback.ts). Sign-ups
 * (customer inserts) across processes: shared-signups.ts.
 */
import { Measurements } from '../../src/measure/measurements.ts';
import { timed } from '../../src/measure/timed.ts';
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import type { ProcessPool } from '../../src/runner/process-pool.ts';
import type { ThreadContext } from '../../src/runner/process-protocol.ts';
import {
  coordinate,
  loopSettings,
  runWorkerLoop,
  RunControl,
  type ScheduleSettings,
  type WorkerOperation,
} from '../../src/runner/schedule.ts';
import { DiscreteGenerator } from '../../src/workload/generators/discrete.ts';
import { Random } from '../../src/workload/random.ts';
import type { EcommerceDialect, PaginationIndex } from './dialect.ts';
import { ECOMMERCE_DIALECTS } from './dialects.ts';
import { customerPatch, generateCustomer } from './generator.ts';
import { customerId, orderId, type Customer, type Dataset } from './model.ts';
import { EcommerceOracle } from './oracle.ts';
import {
  isQueryKind,
  operationRow,
  ParameterChooser,
  READBACK_ROW,
  type OperationName,
  type QueryKind,
} from './queries.ts';
import { callQuery, checkQuery, signupSnapshot } from './query-checks.ts';
import { WriteLedger } from './readback.ts';
import type { EcommerceSettings } from './settings.ts';
import { handOut, newSignupState, SharedSignups, type SharedSignupsState } from './shared-signups.ts';
import type { SignupLedger, Signups } from './signups.ts';

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
  /** Run the workers in these worker processes (each makes its own dialect and oracle). */
  pool?: ProcessPool;
  /** Whether the dataset's secondary indexes were built (the dialect a worker thread makes follows it); default true. */
  indexes?: boolean;
  /** The dataset's pagination index (the dialect a worker thread makes follows it); default `country-id`. */
  paginationIndex?: PaginationIndex;
}

export interface WorkloadRunOutcome {
  outcome: PhaseOutcome;
  /** The first wrong answer, naming store, operation, parameters, expected and got. */
  mismatch?: string;
}

/** What one event loop's workers found that the run's notes must say. */
interface Findings {
  mismatch?: string;
  allUnsupported?: string;
}

/** The operations of one event loop's workers: choose parameters, time the call, check the answer. */
class Operations {
  private readonly chooser: ParameterChooser;
  private readonly operations: DiscreteGenerator<OperationName>;
  private readonly writes: WriteLedger;
  private updates = 0;
  readonly findings: Findings = {};
  // UNSUPPORTED is a property of the target and the operation, not of the parameters: once every
  // operation of the mix has answered UNSUPPORTED and none anything else, further calls only
  // repeat that answer (millions of times a minute), so the run stops and says why.
  private readonly unsupported = new Map<OperationName, string>();
  private supportedSeen = false;

  constructor(
    private readonly o: Omit<WorkloadRunOptions, 'signups' | 'status' | 'label' | 'pool'> & { signups: Signups },
    private readonly measurements: Measurements,
    private readonly control: RunControl,
    random: Random,
    /** This loop's number and the loops' count: update versions stay distinct across processes. */
    private readonly thread: number,
    private readonly threads: number,
  ) {
    this.chooser = new ParameterChooser(o.dataset, random, o.settings);
    this.operations = new DiscreteGenerator<OperationName>(random, o.proportions);
    // Distinct sampling streams per thread; only a lone thread sees every update of a customer.
    this.writes = new WriteLedger(o.dataset.seed, o.settings.seed + thread, o.settings.readbacksample, threads === 1);
  }

  /** A worker's operation for the run loop. */
  worker(): WorkerOperation {
    const clock = { dueMs: undefined as number | undefined };
    return (dueMs) => {
      clock.dueMs = dueMs;
      return this.run(this.operations.nextValue(), clock);
    };
  }

  /** Time one dialect call; returns its value, or undefined when it failed. */
  private async call<T>(
    operation: OperationName,
    clock: { dueMs: number | undefined },
    call: () => Promise<T>,
    isFound: (value: T) => boolean = () => true,
  ): Promise<T | undefined> {
    const t = await timed(call, (value) => (isFound(value) ? 'OK' : 'NOT_FOUND'));
    if (t.status === 'UNSUPPORTED') {
      if (!this.unsupported.has(operation))
        this.unsupported.set(operation, t.error instanceof Error ? t.error.message : String(t.error));
      if (
        !this.supportedSeen &&
        this.findings.allUnsupported === undefined &&
        this.unsupported.size === this.o.proportions.length
      ) {
        this.findings.allUnsupported = [...this.unsupported]
          .map(([op, why]) => `${operationRow(op)}: ${why}`)
          .join('; ');
        this.control.stop();
      }
    } else {
      this.supportedSeen = true;
    }
    this.measurements.measure(operationRow(operation), t.status, clock.dueMs ?? t.startMs, t.startMs, t.endMs, t.error);
    return t.status === 'OK' ? t.value : undefined;
  }

  /** Record a check; the first failed one stops the run and is kept for the caller to raise. */
  private check(operation: OperationName, params: unknown, verify: () => string | undefined): void {
    const start = performance.now();
    const problem = verify();
    const ms = performance.now() - start;
    if (problem === undefined) {
      this.measurements.measureCheck('OK', ms);
      return;
    }
    const kind = isQueryKind(operation) ? operation : undefined;
    const variant = kind ? ` [${this.o.variants[kind]}]` : '';
    const message = `${this.o.store}${variant} ${operationRow(operation)} ${JSON.stringify(params)}: ${problem}`;
    this.measurements.measureCheck('UNEXPECTED_STATE', ms, message);
    this.findings.mismatch ??= message;
    this.control.stop();
  }

  /** Read a written customer back (timed as READBACK) and check it; failures count as the row's, not as the write's. */
  private async readBack(
    index: number,
    verify: (doc: Customer | null) => string | undefined,
    what: OperationName,
  ): Promise<void> {
    const t = await timed(
      () => this.o.dialect.readCustomer(customerId(index)),
      (d) => (d === null ? 'NOT_FOUND' : 'OK'),
    );
    // Not scheduled of its own: its latency starts when it is sent, not when the write was due.
    this.measurements.measure(READBACK_ROW, t.status, t.startMs, t.startMs, t.endMs, t.error);
    if (t.status === 'OK' || t.status === 'NOT_FOUND')
      this.check(what, { readBack: customerId(index) }, () => verify((t.value as Customer | null | undefined) ?? null));
  }

  private async run(operation: OperationName, clock: { dueMs: number | undefined }): Promise<void> {
    const { dialect, oracle, signups, variants } = this.o;
    switch (operation) {
      case 'customer-read': {
        const index = this.chooser.customerIndex();
        const id = customerId(index);
        const doc = await this.call(
          operation,
          clock,
          () => dialect.readCustomer(id),
          (d) => d !== null,
        );
        if (doc !== undefined) this.check(operation, { id }, () => oracle.checkCustomer(index, doc));
        return;
      }
      case 'order-read': {
        const { customer, order } = this.chooser.orderOf();
        const id = orderId(customer, order);
        const doc = await this.call(
          operation,
          clock,
          () => dialect.readOrder(id),
          (d) => d !== null,
        );
        if (doc !== undefined) this.check(operation, { id }, () => oracle.checkOrder(customer, order, doc));
        return;
      }
      case 'customer-update': {
        const index = this.chooser.customerIndex();
        // Versions stay distinct across threads.
        const version = ++this.updates * this.threads + this.thread;
        const patch = customerPatch(this.o.dataset.seed, index, version);
        const ticket = this.writes.updateSent(index, version);
        const found = await this.call(
          operation,
          clock,
          () => dialect.updateCustomer(customerId(index), patch),
          (f) => f,
        );
        this.writes.updateDone(ticket);
        if (found === true && this.writes.sample())
          await this.readBack(
            index,
            (doc) => oracle.checkUpdated(index, doc, this.writes.allowedAfter(ticket)),
            operation,
          );
        return;
      }
      case 'customer-insert': {
        const index = await signups.allocate();
        const customer = generateCustomer(this.o.dataset, index);
        signups.sent(index);
        const done = await this.call(operation, clock, async () => {
          await dialect.insertCustomer(customer);
          return true;
        });
        if (done) signups.acknowledged(index);
        else signups.failed?.(index);
        if (done && this.writes.sample())
          await this.readBack(index, (doc) => oracle.checkInserted(index, doc), operation);
        return;
      }
      default: {
        // The queries: pagination, JOIN and YCSB-JSON's others (query-checks.ts).
        const kind: QueryKind = operation;
        const params = this.chooser.draw(kind);
        const snapshot = signupSnapshot(kind, params, oracle, signups, dialect.readsOwnWrites);
        const answer = await this.call(operation, clock, () => callQuery(dialect, kind, variants[kind]!, params));
        if (answer !== undefined)
          this.check(operation, params, () => checkQuery(kind, oracle, params, answer, snapshot));
      }
    }
  }
}

function scheduleOf(s: EcommerceSettings): ScheduleSettings {
  return {
    threadcount: s.threadcount,
    target: s.target,
    operationcount: s.operationcount,
    maxexecutiontime: s.maxexecutiontime,
    warmuptime: s.warmuptime,
    statusIntervalSeconds: s['status.interval'],
  };
}

export async function runWorkload(options: WorkloadRunOptions): Promise<WorkloadRunOutcome> {
  const s = options.settings;
  const measurements = new Measurements(s['measurement.interval'] !== 'intended', s['measurement.interval'] !== 'op');
  const settings = scheduleOf(s);
  const control = new RunControl();
  const findings: Findings[] = [];
  let processes = 1;
  let engine;
  if (options.pool === undefined) {
    const operations = new Operations(options, measurements, control, new Random(s.seed), 0, 1);
    findings.push(operations.findings);
    engine = {
      run: async (ctl: RunControl, startMs: number) => [
        await runWorkerLoop({
          measurements,
          control: ctl,
          ...loopSettings(settings),
          firstWorker: 0,
          workers: s.threadcount,
          startMs,
          worker: () => operations.worker(),
        }),
      ],
    };
  } else {
    processes = options.pool.processes;
    const signups = newSignupState(options.dataset.customers, s.operationcount);
    const spec: EcommerceThreadSpec = { ...pick(options), processes, signups };
    engine = options.pool.engine({
      module: import.meta.url,
      body: 'ecommerceThread',
      spec,
      threadcount: s.threadcount,
      measurements,
      handlers: {
        allocate: async () => handOut(signups, await options.signups.allocate()),
        findings: (payload) => void findings.push(payload as Findings),
      },
    });
  }
  const run = await coordinate({
    measurements,
    settings,
    status: options.status,
    label: options.label,
    control,
    engine,
  });
  const mismatch = findings.find((f) => f.mismatch !== undefined)?.mismatch;
  const allUnsupported = findings.find((f) => f.allUnsupported !== undefined)?.allUnsupported;
  const notes = run.notes;
  if (processes > 1)
    notes.push(
      `the ${s.threadcount} workers ran in ${processes} processes (worker threads), each with its own connections, dialect and oracle; their measurements are merged exactly`,
    );
  if (mismatch !== undefined) notes.push(`stopped at the first answer the oracle rejected: ${mismatch}`);
  if (allUnsupported !== undefined) {
    notes.push(
      `stopped after ${measurements.measuredOperations + measurements.warmupOperations} operations: every operation of this workload is UNSUPPORTED on this target (${allUnsupported})`,
    );
  }
  return {
    outcome: { phase: 'run', measurements, ...run, recordsLoaded: 0, processes },
    ...(mismatch !== undefined ? { mismatch } : {}),
  };
}

/** What a worker thread needs to run its share of a workload (plain data). */
type EcommerceThreadSpec = Pick<WorkloadRunOptions, 'store' | 'dataset' | 'proportions' | 'variants' | 'settings'> & {
  indexes: boolean;
  paginationIndex: PaginationIndex;
  processes: number;
  signups: SharedSignupsState;
};

function pick(o: WorkloadRunOptions): Omit<EcommerceThreadSpec, 'processes' | 'signups'> {
  return {
    store: o.store,
    dataset: o.dataset,
    proportions: o.proportions,
    variants: o.variants,
    settings: o.settings,
    indexes: o.indexes ?? true,
    paginationIndex: o.paginationIndex ?? 'country-id',
  };
}

/** A workload's share of workers in a worker thread of a ProcessPool (a ThreadBody). */
export async function ecommerceThread(
  context: ThreadContext,
  spec: EcommerceThreadSpec,
): Promise<(startMs: number) => Promise<number | undefined>> {
  const dialect = await ECOMMERCE_DIALECTS.create(context.store, {
    indexes: spec.indexes,
    paginationIndex: spec.paginationIndex,
  });
  const signups = new SharedSignups(spec.signups, spec.dataset, async () => (await context.call('allocate')) as number);
  const options = {
    ...spec,
    dialect,
    oracle: new EcommerceOracle(spec.dataset, { listLimit: spec.settings.maxlimit }),
    signups,
  };
  const operations = new Operations(
    options,
    context.measurements,
    context.control,
    new Random(spec.settings.seed, context.thread),
    context.thread,
    spec.processes,
  );
  return async (startMs) => {
    const busy = await runWorkerLoop({
      ...context,
      ...loopSettings(scheduleOf(spec.settings)),
      startMs,
      worker: () => operations.worker(),
    });
    await context.call('findings', operations.findings);
    return busy;
  };
}

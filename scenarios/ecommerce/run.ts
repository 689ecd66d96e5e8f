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
 * Sign-ups (customer inserts) across processes: the indexes are handed out by the main
 * thread's SignupLedger (it reserves them in the dataset's manifest), and each sign-up's state
 * (sent, acknowledged, failed) is kept in shared memory, so a page checked in one process
 * knows what every process had inserted when the query was sent.
 */
import { Measurements } from '../../src/measure/measurements.ts';
import { timed } from '../../src/measure/timed.ts';
import type { PhaseOutcome } from '../../src/runner/phases.ts';
import type { ProcessPool } from '../../src/runner/process-pool.ts';
import type { ThreadContext } from '../../src/runner/process-protocol.ts';
import { coordinate, loopSettings, runWorkerLoop, RunControl, type ScheduleSettings, type WorkerOperation } from '../../src/runner/schedule.ts';
import { DiscreteGenerator } from '../../src/workload/generators/discrete.ts';
import { Random } from '../../src/workload/random.ts';
import type { EcommerceDialect } from './dialect.ts';
import { ECOMMERCE_DIALECTS } from './dialects.ts';
import { customerCore, customerPatch, generateCustomer } from './generator.ts';
import { customerId, customerIndexOf, orderId, type Dataset } from './model.ts';
import { EcommerceOracle, type SignupView } from './oracle.ts';
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
  /** Run the workers in these worker processes (each makes its own dialect and oracle). */
  pool?: ProcessPool;
}

export interface WorkloadRunOutcome {
  outcome: PhaseOutcome;
  /** The first wrong answer, naming store, operation, parameters, expected and got. */
  mismatch?: string;
}

/** What the operations need of the sign-up ledger (the SignupLedger, or its shared form in a worker thread). */
interface Signups {
  allocate(): Promise<number>;
  sent(index: number): void;
  acknowledged(index: number): void;
  failed?(index: number): void;
  view(country: string, readsOwnWrites: boolean): SignupView;
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
  private async call<T>(operation: OperationName, clock: { dueMs: number | undefined }, call: () => Promise<T>, isFound: (value: T) => boolean = () => true): Promise<T | undefined> {
    const t = await timed(call, (value) => (isFound(value) ? 'OK' : 'NOT_FOUND'));
    if (t.status === 'UNSUPPORTED') {
      if (!this.unsupported.has(operation)) this.unsupported.set(operation, t.error instanceof Error ? t.error.message : String(t.error));
      if (!this.supportedSeen && this.findings.allUnsupported === undefined && this.unsupported.size === this.o.proportions.length) {
        this.findings.allUnsupported = [...this.unsupported].map(([op, why]) => `${operationRow(op)}: ${why}`).join('; ');
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
    const kind = operation === 'pagination' || operation === 'join' ? operation : undefined;
    const variant = kind ? ` [${this.o.variants[kind]}]` : '';
    const message = `${this.o.store}${variant} ${operationRow(operation)} ${JSON.stringify(params)}: ${problem}`;
    this.measurements.measureCheck('UNEXPECTED_STATE', ms, message);
    this.findings.mismatch ??= message;
    this.control.stop();
  }

  private async run(operation: OperationName, clock: { dueMs: number | undefined }): Promise<void> {
    const { dialect, oracle, signups, variants } = this.o;
    switch (operation) {
      case 'pagination': {
        const params = this.chooser.page();
        const view = signups.view(params.country, dialect.readsOwnWrites);
        const ids = await this.call(operation, clock, () => dialect.pagination(variants.pagination!, params));
        if (ids !== undefined) this.check(operation, params, () => oracle.checkPage(params, ids, view));
        return;
      }
      case 'join': {
        const params = this.chooser.join();
        const rows = await this.call(operation, clock, () => dialect.join(variants.join!, params));
        if (rows !== undefined) this.check(operation, params, () => oracle.checkJoin(params, rows));
        return;
      }
      case 'customer-read': {
        const index = this.chooser.customerIndex();
        const id = customerId(index);
        const doc = await this.call(operation, clock, () => dialect.readCustomer(id), (d) => d !== null);
        if (doc !== undefined) this.check(operation, { id }, () => oracle.checkCustomer(index, doc));
        return;
      }
      case 'order-read': {
        const { customer, order } = this.chooser.orderOf();
        const id = orderId(customer, order);
        const doc = await this.call(operation, clock, () => dialect.readOrder(id), (d) => d !== null);
        if (doc !== undefined) this.check(operation, { id }, () => oracle.checkOrder(customer, order, doc));
        return;
      }
      case 'customer-update': {
        const index = this.chooser.customerIndex();
        const patch = customerPatch(this.o.dataset.seed, index, ++this.updates * this.threads + this.thread);
        await this.call(operation, clock, () => dialect.updateCustomer(customerId(index), patch), (found) => found);
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
        return;
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
        await runWorkerLoop({ measurements, control: ctl, ...loopSettings(settings), firstWorker: 0, workers: s.threadcount, startMs, worker: () => operations.worker() }),
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
  const run = await coordinate({ measurements, settings, status: options.status, label: options.label, control, engine });
  const mismatch = findings.find((f) => f.mismatch !== undefined)?.mismatch;
  const allUnsupported = findings.find((f) => f.allUnsupported !== undefined)?.allUnsupported;
  const notes = run.notes;
  if (processes > 1) notes.push(`the ${s.threadcount} workers ran in ${processes} processes (worker threads), each with its own connections, dialect and oracle; their measurements are merged exactly`);
  if (mismatch !== undefined) notes.push(`stopped at the first answer the oracle rejected: ${mismatch}`);
  if (allUnsupported !== undefined) {
    notes.push(`stopped after ${measurements.measuredOperations + measurements.warmupOperations} operations: every operation of this workload is UNSUPPORTED on this target (${allUnsupported})`);
  }
  return {
    outcome: { phase: 'run', measurements, ...run, recordsLoaded: 0, processes },
    ...(mismatch !== undefined ? { mismatch } : {}),
  };
}

/** What a worker thread needs to run its share of a workload (plain data). */
interface EcommerceThreadSpec {
  store: string;
  dataset: Dataset;
  proportions: readonly [OperationName, number][];
  variants: Readonly<Partial<Record<QueryKind, string>>>;
  settings: EcommerceSettings;
  processes: number;
  signups: SharedSignupsState;
}

function pick(o: WorkloadRunOptions): Omit<EcommerceThreadSpec, 'processes' | 'signups'> {
  return { store: o.store, dataset: o.dataset, proportions: o.proportions, variants: o.variants, settings: o.settings };
}

/** A workload's share of workers in a worker thread of a ProcessPool (a ThreadBody). */
export async function ecommerceThread(context: ThreadContext, spec: EcommerceThreadSpec): Promise<(startMs: number) => Promise<number | undefined>> {
  const dialect = await ECOMMERCE_DIALECTS.create(context.store, {});
  const signups = new SharedSignups(spec.signups, spec.dataset.seed, async () => (await context.call('allocate')) as number);
  const options = { ...spec, dialect, oracle: new EcommerceOracle(spec.dataset), signups };
  const operations = new Operations(options, context.measurements, context.control, new Random(spec.settings.seed, context.thread), context.thread, spec.processes);
  return async (startMs) => {
    const busy = await runWorkerLoop({ ...context, ...loopSettings(scheduleOf(spec.settings)), startMs, worker: () => operations.worker() });
    await context.call('findings', operations.findings);
    return busy;
  };
}

const SENT = 1;
const ACKNOWLEDGED = 2;
const FAILED = 3;
/** Sign-ups a time-bound run can track (a count-bound run needs at most operationcount). */
const MAX_TRACKED_SIGNUPS = 1 << 24;

interface SharedSignupsState {
  /** [0] how many sign-up indexes were handed out (int32), then one state byte per sign-up. */
  buffer: SharedArrayBuffer;
  first: number;
  capacity: number;
}

/** Main thread: shared memory for the sign-ups of one run. */
function newSignupState(first: number, operationcount: number): SharedSignupsState {
  const capacity = operationcount > 0 ? Math.min(operationcount, MAX_TRACKED_SIGNUPS) : MAX_TRACKED_SIGNUPS;
  return { buffer: new SharedArrayBuffer(4 + capacity), first, capacity };
}

/** Main thread: an index the ledger handed out, from now on visible to every thread's views. */
function handOut(state: SharedSignupsState, index: number): number {
  const slot = index - state.first;
  if (slot >= state.capacity) throw new Error(`more than ${state.capacity} sign-ups in one run: run for a shorter time or set operationcount`);
  const handedOut = new Int32Array(state.buffer, 0, 1);
  if (slot + 1 > Atomics.load(handedOut, 0)) Atomics.store(handedOut, 0, slot + 1);
  return index;
}

/**
 * A worker thread's side of the sign-ups: their states in shared memory (an index is marked
 * sent before its insert goes out, acknowledged or failed when it comes back), and views of
 * them. A view lists the acknowledged sign-ups of a country: those below the first unsettled
 * index are kept per country as they are passed, the few beyond it (in flight) are looked at
 * anew each time.
 */
class SharedSignups implements Signups {
  private readonly handedOut: Int32Array;
  private readonly states: Uint8Array;
  private settled = 0;
  private readonly byCountry = new Map<string, string[]>();

  constructor(
    private readonly state: SharedSignupsState,
    private readonly seed: number,
    readonly allocate: () => Promise<number>,
  ) {
    this.handedOut = new Int32Array(state.buffer, 0, 1);
    this.states = new Uint8Array(state.buffer, 4, state.capacity);
  }

  sent(index: number): void {
    Atomics.store(this.states, index - this.state.first, SENT);
  }

  acknowledged(index: number): void {
    Atomics.store(this.states, index - this.state.first, ACKNOWLEDGED);
  }

  failed(index: number): void {
    Atomics.store(this.states, index - this.state.first, FAILED);
  }

  view(country: string, readsOwnWrites: boolean): SignupView {
    const end = Atomics.load(this.handedOut, 0);
    while (this.settled < end) {
      const state = Atomics.load(this.states, this.settled);
      if (state !== ACKNOWLEDGED && state !== FAILED) break;
      if (state === ACKNOWLEDGED) this.listed(this.settled).push(customerId(this.state.first + this.settled));
      this.settled++;
    }
    const acknowledged = [...(this.byCountry.get(country) ?? [])];
    for (let slot = this.settled; slot < end; slot++) {
      const index = this.state.first + slot;
      if (Atomics.load(this.states, slot) === ACKNOWLEDGED && customerCore(this.seed, index).country === country) acknowledged.push(customerId(index));
    }
    return { acknowledged, possible: (id) => this.wasSent(id), readsOwnWrites };
  }

  private wasSent(id: string): boolean {
    const slot = customerIndexOf(id) - this.state.first;
    return slot >= 0 && slot < this.state.capacity && Atomics.load(this.states, slot) !== 0;
  }

  private listed(slot: number): string[] {
    const country = customerCore(this.seed, this.state.first + slot).country;
    let ids = this.byCountry.get(country);
    if (ids === undefined) this.byCountry.set(country, (ids = []));
    return ids;
  }
}

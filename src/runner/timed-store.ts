import type { Measurements, OperationRows } from '../measure/measurements.ts';
import { isFailure, isOutage, type Status } from '../measure/status.ts';
import { statusOfError } from '../measure/timed.ts';
import type { OperationOutcome, OperationSpan } from './schedule.ts';
import { canInsertMany, type FieldMap, type KeyedRecord, type Store } from '../stores/store.ts';

export { statusOfError } from '../measure/timed.ts';

/** performance.now(), with `performance` taken once: the global is a lazy getter that costs as much as the read. */
const timing = performance;

/**
 * The one place store calls are timed for YCSB (go-ycsb's dbwrapper): the clock is read just
 * before a call is issued and just after it settles, and the outcome is filed under the
 * operation's name. A call resolves with the outcome of the worker's operation so far (see
 * `outcome`), so a one-call operation can hand the call's promise straight to the run loop. What
 * the call answered and how it went stay on the instance until the next call: `record` (a read),
 * `records` (a scan), `lastStatus`, `lastStartMs`, `lastEndMs`; and the operation's span
 * (`firstStartMs` … `lastEndMs`), which the run loop takes as the operation's latency.
 *
 * One instance per worker: the intended start, the last call and the operation's failures are
 * the worker's own, and a worker has one operation in flight.
 *
 * This is on every operation's path, and between two operations the driver's own work pushes the
 * runner's state out of the CPU's caches, so what an operation costs here is mostly memory it
 * touches and objects it allocates: a call is one async step over the store's own (no closure,
 * no result object); the method reads the clock and issues the store call, `settle` awaits it.
 * Store methods are async, so a failure arrives as a rejection.
 */
export class TimedStore implements OperationSpan {
  /**
   * When the worker's current operation was due under a target rate (every call of the operation
   * is measured from it, as in YCSB); undefined when unthrottled, where each call's `Intended-`
   * latency is its own service time, as in YCSB.
   */
  intendedStartMs: number | undefined = undefined;
  lastStatus: Status = 'OK';
  lastStartMs = 0;
  lastEndMs = 0;
  /** When the current operation's first call started (NaN before it): with lastEndMs, the operation's span for the run loop. */
  firstStartMs = Number.NaN;
  /** What the last read answered (null: no such record; undefined: the call failed). */
  record: FieldMap | null | undefined = undefined;
  /** What the last scan answered (undefined: the call failed). */
  records: KeyedRecord[] | undefined = undefined;
  /** Whether a call of the current operation failed, and whether because the store was out of reach. */
  private failed = false;
  private outage = false;
  private readonly rows: Record<'READ' | 'SCAN' | 'UPDATE' | 'INSERT' | 'DELETE' | 'INSERT-BATCH', OperationRows>;

  constructor(
    private readonly store: Store,
    private readonly measurements: Measurements,
  ) {
    const rowsOf = (operation: string) => measurements.rowsOf(operation);
    this.rows = {
      READ: rowsOf('READ'),
      SCAN: rowsOf('SCAN'),
      UPDATE: rowsOf('UPDATE'),
      INSERT: rowsOf('INSERT'),
      DELETE: rowsOf('DELETE'),
      'INSERT-BATCH': rowsOf('INSERT-BATCH'),
    };
  }

  /** A new operation starts, due at `dueMs` under a target rate (undefined when unthrottled). */
  beginOperation(dueMs: number | undefined): void {
    this.intendedStartMs = dueMs;
    this.firstStartMs = Number.NaN;
    this.failed = false;
    this.outage = false;
  }

  /** How the calls since `beginOperation` went: `outage`, true when one failed otherwise, else false. */
  outcome(): OperationOutcome {
    return this.outage ? 'outage' : this.failed;
  }

  read(table: string, key: string, fields: readonly string[] | null): Promise<OperationOutcome> {
    const startMs = timing.now();
    return this.settle(this.rows.READ, startMs, this.store.read(table, key, fields), keepRecord);
  }

  scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<OperationOutcome> {
    const startMs = timing.now();
    return this.settle(
      this.rows.SCAN,
      startMs,
      this.store.scan(table, startKey, count, fields),
      count > 0 ? keepRecords : keepNoRecords,
    );
  }

  update(table: string, key: string, values: FieldMap): Promise<OperationOutcome> {
    const startMs = timing.now();
    return this.settle(this.rows.UPDATE, startMs, this.store.update(table, key, values), foundStatus);
  }

  insert(table: string, key: string, values: FieldMap): Promise<OperationOutcome> {
    const startMs = timing.now();
    return this.settle(this.rows.INSERT, startMs, this.store.insert(table, key, values), alwaysOk);
  }

  delete(table: string, key: string): Promise<OperationOutcome> {
    const startMs = timing.now();
    return this.settle(this.rows.DELETE, startMs, this.store.delete(table, key), foundStatus);
  }

  /** Bulk load: one measured call per batch, filed as INSERT-BATCH (its Return counts are batches). */
  insertMany(table: string, records: readonly KeyedRecord[]): Promise<OperationOutcome> {
    const store = this.store;
    if (!canInsertMany(store)) throw new Error('insertMany called on a store without bulk insert');
    const startMs = timing.now();
    return this.settle(this.rows['INSERT-BATCH'], startMs, store.insertMany(table, records), alwaysOk);
  }

  /** Await a call, file it, keep what it answered (`take`, which also says its status when it did not throw). */
  private async settle<T>(
    rows: OperationRows,
    startMs: number,
    pending: Promise<T>,
    take: (timed: TimedStore, value: T | undefined) => Status,
  ): Promise<OperationOutcome> {
    let value: T | undefined;
    let error: unknown;
    let threw = false;
    try {
      value = await pending;
    } catch (thrown) {
      error = thrown;
      threw = true;
    }
    const endMs = timing.now();
    const answered = take(this, value);
    const status = threw ? statusOfError(error) : answered;
    this.lastStatus = status;
    this.lastStartMs = startMs;
    this.lastEndMs = endMs;
    if (Number.isNaN(this.firstStartMs)) this.firstStartMs = startMs;
    if (status !== 'OK' && isFailure(status)) {
      this.failed = true;
      if (isOutage(status)) this.outage = true;
    }
    this.measurements.measureRows(rows, status, this.intendedStartMs ?? startMs, startMs, endMs, error);
    return this.outage ? 'outage' : this.failed;
  }
}

// What each call keeps of its answer, and its status (undefined: the call failed; its status
// then comes from the error).
function keepRecord(timed: TimedStore, record: FieldMap | null | undefined): Status {
  timed.record = record;
  return record === null ? 'NOT_FOUND' : 'OK';
}

/**
 * A scan that returns nothing is NOT_FOUND (as YCSB's MongoDB binding files it): YCSB starts a
 * scan at a key it loaded or whose insert was acknowledged, so on a loaded table a scan always
 * finds at least its start record.
 */
function keepRecords(timed: TimedStore, records: KeyedRecord[] | undefined): Status {
  timed.records = records;
  return records !== undefined && records.length === 0 ? 'NOT_FOUND' : 'OK';
}

/** A scan asked for no record (`minscanlength=0`): an empty answer is the right one. */
function keepNoRecords(timed: TimedStore, records: KeyedRecord[] | undefined): Status {
  timed.records = records;
  return 'OK';
}

function foundStatus(_timed: TimedStore, found: boolean | undefined): Status {
  return found === false ? 'NOT_FOUND' : 'OK';
}

function alwaysOk(): Status {
  return 'OK';
}

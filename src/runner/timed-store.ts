import type { Measurements } from '../measure/measurements.ts';
import { isFailure, isOutage, type Status } from '../measure/status.ts';
import { timed, type Timed } from '../measure/timed.ts';
import type { OperationOutcome } from './schedule.ts';
import { canInsertMany, type FieldMap, type KeyedRecord, type Store } from '../stores/store.ts';

export { statusOfError } from '../measure/timed.ts';

const readStatus = (record: FieldMap | null): Status => (record === null ? 'NOT_FOUND' : 'OK');
const foundStatus = (found: boolean): Status => (found ? 'OK' : 'NOT_FOUND');

/**
 * The one place store calls are timed for YCSB (go-ycsb's dbwrapper): each call goes through
 * `timed()`, and its outcome is filed under the operation's name. Every method returns the
 * call's status with its value, so composite operations (READ-MODIFY-WRITE) need no shared state.
 *
 * One instance per worker, because `intendedStartMs` (the scheduled start of the worker's
 * current operation under a target rate) is per worker.
 */
export class TimedStore {
  /**
   * When the worker's current operation was due under a target rate (every call of the operation
   * is measured from it, as in YCSB); undefined when unthrottled, where each call's `Intended-`
   * latency is its own service time, as in YCSB.
   */
  intendedStartMs: number | undefined = undefined;
  /** Calls of this worker that failed so far (ERROR, TIMEOUT, SERVICE_UNAVAILABLE): an operation with one failed. */
  failures = 0;
  /** Of those, the calls that failed because the store was out of reach. */
  outages = 0;

  /**
   * What the calls since `failures`/`outages` were read (before the operation) make of it. Two
   * numbers rather than a snapshot object: this is on every operation's path.
   */
  outcomeSince(failures: number, outages: number): OperationOutcome {
    if (this.outages > outages) return 'outage';
    return this.failures > failures;
  }

  constructor(
    private readonly store: Store,
    private readonly measurements: Measurements,
  ) {}

  read(table: string, key: string, fields: readonly string[] | null): Promise<Timed<FieldMap | null>> {
    return this.file('READ', timed(() => this.store.read(table, key, fields), readStatus));
  }

  scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<Timed<KeyedRecord[]>> {
    return this.file('SCAN', timed(() => this.store.scan(table, startKey, count, fields)));
  }

  update(table: string, key: string, values: FieldMap): Promise<Timed<boolean>> {
    return this.file('UPDATE', timed(() => this.store.update(table, key, values), foundStatus));
  }

  insert(table: string, key: string, values: FieldMap): Promise<Timed<void>> {
    return this.file('INSERT', timed(() => this.store.insert(table, key, values)));
  }

  delete(table: string, key: string): Promise<Timed<boolean>> {
    return this.file('DELETE', timed(() => this.store.delete(table, key), foundStatus));
  }

  /** Bulk load: one measured call per batch, filed as INSERT-BATCH (its Return counts are batches). */
  insertMany(table: string, records: readonly KeyedRecord[]): Promise<Timed<void>> {
    const store = this.store;
    if (!canInsertMany(store)) throw new Error('insertMany called on a store without bulk insert');
    return this.file('INSERT-BATCH', timed(() => store.insertMany(table, records)));
  }

  private async file<T>(operation: string, pending: Promise<Timed<T>>): Promise<Timed<T>> {
    const t = await pending;
    if (isFailure(t.status)) this.failures++;
    if (isOutage(t.status)) this.outages++;
    this.measurements.measure(operation, t.status, this.intendedStartMs ?? t.startMs, t.startMs, t.endMs, t.error);
    return t;
  }
}

import type { Measurements } from '../measure/measurements.ts';
import type { Status } from '../measure/status.ts';
import {
  UnsupportedError,
  canInsertMany,
  type FieldMap,
  type KeyedRecord,
  type Store,
} from '../stores/store.ts';

/** Map an adapter's exception to a YCSB status: UnsupportedError is UNSUPPORTED, anything else ERROR. */
export function statusOfError(error: unknown): Status {
  return error instanceof UnsupportedError ? 'UNSUPPORTED' : 'ERROR';
}

/**
 * The one place store calls are timed (go-ycsb's dbwrapper): each call is measured, its
 * outcome mapped to a status and filed under the operation's name. Adapters never see a clock.
 *
 * One instance per worker, because `intendedStartMs` (the scheduled start of the worker's
 * current operation under a target rate) is per worker.
 */
export class TimedStore {
  /** Scheduled start of the current operation; equals the actual start when unthrottled. */
  intendedStartMs = 0;
  /** Status of the last call, for composite operations (READ-MODIFY-WRITE). */
  lastStatus: Status = 'OK';

  constructor(
    private readonly store: Store,
    private readonly measurements: Measurements,
  ) {}

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const start = performance.now();
    let status: Status;
    let record: FieldMap | null = null;
    let failure: unknown;
    try {
      record = await this.store.read(table, key, fields);
      status = record === null ? 'NOT_FOUND' : 'OK';
    } catch (error) {
      status = statusOfError(error);
      failure = error;
    }
    this.measurements.measure('READ', status, this.intendedStartMs, start, performance.now(), failure);
    this.lastStatus = status;
    return record;
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[] | null> {
    const start = performance.now();
    let status: Status;
    let records: KeyedRecord[] | null = null;
    let failure: unknown;
    try {
      records = await this.store.scan(table, startKey, count, fields);
      status = 'OK';
    } catch (error) {
      status = statusOfError(error);
      failure = error;
    }
    this.measurements.measure('SCAN', status, this.intendedStartMs, start, performance.now(), failure);
    this.lastStatus = status;
    return records;
  }

  async update(table: string, key: string, values: FieldMap): Promise<Status> {
    const start = performance.now();
    let status: Status;
    let failure: unknown;
    try {
      status = (await this.store.update(table, key, values)) ? 'OK' : 'NOT_FOUND';
    } catch (error) {
      status = statusOfError(error);
      failure = error;
    }
    this.measurements.measure('UPDATE', status, this.intendedStartMs, start, performance.now(), failure);
    this.lastStatus = status;
    return status;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<Status> {
    const start = performance.now();
    let status: Status;
    let failure: unknown;
    try {
      await this.store.insert(table, key, values);
      status = 'OK';
    } catch (error) {
      status = statusOfError(error);
      failure = error;
    }
    this.measurements.measure('INSERT', status, this.intendedStartMs, start, performance.now(), failure);
    this.lastStatus = status;
    return status;
  }

  async delete(table: string, key: string): Promise<Status> {
    const start = performance.now();
    let status: Status;
    let failure: unknown;
    try {
      status = (await this.store.delete(table, key)) ? 'OK' : 'NOT_FOUND';
    } catch (error) {
      status = statusOfError(error);
      failure = error;
    }
    this.measurements.measure('DELETE', status, this.intendedStartMs, start, performance.now(), failure);
    this.lastStatus = status;
    return status;
  }

  /** Bulk load: one measured call per batch, filed as INSERT-BATCH (its Return counts are batches). */
  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<Status> {
    if (!canInsertMany(this.store)) throw new Error('insertMany called on a store without bulk insert');
    const start = performance.now();
    let status: Status;
    let failure: unknown;
    try {
      await this.store.insertMany(table, records);
      status = 'OK';
    } catch (error) {
      status = statusOfError(error);
      failure = error;
    }
    this.measurements.measure('INSERT-BATCH', status, this.intendedStartMs, start, performance.now(), failure);
    this.lastStatus = status;
    return status;
  }
}

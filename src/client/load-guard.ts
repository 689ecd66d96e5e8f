/**
 * The load phase writes new records. Two things keep a load from passing failures off as a result:
 *
 *   - before it starts, `refuseLoadOverExistingRecords` reads the first keys it will write; when
 *     the table already holds them (a second load, as a new user does), the load is refused with
 *     one line naming the store, the table and the ways out, instead of meeting a duplicate-key
 *     error (or a silent overwrite) on every batch;
 *   - while it runs, `LoadWrites` counts the records whose writes failed, and `loadFailure` turns
 *     any into a note at the top of the YCSB text and an error for the exit code, so a load that
 *     wrote nothing never exits 0 with the rate of its failures printed as its throughput.
 */
import { UserError } from '../common/user-error.ts';
import type { PhaseOutcome } from '../runner/phases.ts';
import type { KeyedRecord, Store } from '../stores/store.ts';
import type { CoreWorkload } from '../workload/core-workload.ts';
import type { WorkloadProperties } from '../workload/properties.ts';

/** How many of the load's first keys are read before it starts: a few reads, whatever the load's size. */
const PROBED_KEYS = 3;

/** The table already holds records the load would write. */
export class TableNotEmptyError extends UserError {}

/** Some of the load's records were not written. */
export class LoadFailedError extends UserError {}

/**
 * Refuse a load whose first records are already in the table. Keys are YCSB's: record numbers
 * from `insertstart` on, named by the workload. A probe that fails to read is not a verdict (the
 * load then meets the same problem, and `loadFailure` reports it).
 */
export async function refuseLoadOverExistingRecords(
  store: Store,
  storeName: string,
  workload: CoreWorkload,
  p: WorkloadProperties,
): Promise<void> {
  const keys = Array.from({ length: Math.min(PROBED_KEYS, p.insertcount) }, (_, i) =>
    workload.keyName(p.insertstart + i),
  );
  // An empty answer is no record (YCSB's BasicDB answers every read with one).
  const holds = (record: Record<string, string> | null) => record !== null && Object.keys(record).length > 0;
  const present = await Promise.all(keys.map((key) => store.read(p.table, key, null).then(holds, () => false)));
  const found = keys.find((_, i) => present[i]);
  if (found === undefined) return;
  throw new TableNotEmptyError(
    `${storeName}: table "${p.table}" already holds the records this load would write (${found} is there); ` +
      `load with --fresh to empty the table first, or into another table (-p table=<name>), ` +
      `or after those records (-p insertstart=${p.insertstart + p.insertcount})`,
  );
}

/** What a load knows of its failed writes. */
export interface FailedWrites {
  readonly failedRecords: number;
  readonly countsFailedBatches: boolean;
}

/**
 * The failed writes of a load run by worker processes, whose stores this process cannot wrap:
 * counted from the merged status counts, each failed batch as `batchsize` records (the last,
 * shorter batch may count a few more than it held, which the message says).
 */
export function failedWritesOf(outcome: PhaseOutcome, batchsize: number): FailedWrites {
  const failures = (name: string) => {
    let n = 0;
    for (const [status, count] of outcome.measurements.statusCounts(name)) if (status !== 'OK') n += count;
    return n;
  };
  const batches = failures('INSERT-BATCH');
  return { failedRecords: failures('INSERT') + batches * batchsize, countsFailedBatches: batches > 0 };
}

/** The store as the load sees it, counting the records of every insert that failed. */
export class LoadWrites implements FailedWrites {
  readonly store: Store;
  private failed = 0;
  private failedBatch = false;

  constructor(target: Store) {
    const counted = <T>(records: number, write: Promise<T>): Promise<T> =>
      write.catch((error: unknown) => {
        this.failed += records;
        if (records > 1) this.failedBatch = true;
        throw error;
      });
    // Only the two load writes are intercepted; everything else is the store's own member. The
    // wrappers and bound methods are made once: the load asks for them on every write.
    const insert = (table: string, key: string, values: Record<string, string>) =>
      counted(1, target.insert(table, key, values));
    const bulk = target as Store & { insertMany?(table: string, records: readonly KeyedRecord[]): Promise<void> };
    const insertMany = (table: string, records: readonly KeyedRecord[]) =>
      counted(records.length, bulk.insertMany!(table, records));
    const bound = new Map<string | symbol, unknown>();
    this.store = new Proxy(target, {
      get: (store, name, receiver) => {
        if (name === 'insert') return insert;
        if (name === 'insertMany' && 'insertMany' in store) return insertMany;
        const member = Reflect.get(store, name, receiver) as unknown;
        if (typeof member !== 'function') return member;
        let method = bound.get(name);
        if (method === undefined) bound.set(name, (method = member.bind(store)));
        return method;
      },
    });
  }

  /**
   * Records in inserts that failed so far. A failed batch counts whole: a store may have written
   * part of it (MongoDB's unordered insertMany does), but none of its records is known to be written.
   */
  get failedRecords(): number {
    return this.failed;
  }

  /** True when a failed write was a batch, so the count above may include records written after all. */
  get countsFailedBatches(): boolean {
    return this.failedBatch;
  }
}

/**
 * After the load: null when every record was written; otherwise the error to exit with, and a
 * note (first in the YCSB text and in the result) that says so before any throughput is read.
 */
export function loadFailure(outcome: PhaseOutcome, writes: FailedWrites, storeName: string): LoadFailedError | null {
  const failed = writes.failedRecords;
  if (failed === 0) return null;
  const total = outcome.recordsLoaded + outcome.measurements.failedOperations;
  const sample = ['INSERT-BATCH', 'INSERT'].flatMap((name) => outcome.measurements.errorSamples(name))[0];
  // A driver's message may span lines; the CLI's error is one line.
  const reason = sample === undefined ? '' : ` (first error: ${sample.replace(/\s+/g, ' ').slice(0, 200)})`;
  const summary = `${failed} of ${total} records were not written${writes.countsFailedBatches ? ' (counting each failed batch whole)' : ''}${reason}`;
  outcome.notes.unshift(
    `LOAD FAILED: ${summary}; the figures below count the failed writes too (under Return= and the -FAILED rows), but not in the throughput, which is the rate of the records written`,
  );
  return new LoadFailedError(`${storeName}: the load failed: ${summary}`);
}

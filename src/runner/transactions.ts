import type { Measurements } from '../measure/measurements.ts';
import type { FieldMap, KeyedRecord } from '../stores/store.ts';
import type { CoreWorkload } from '../workload/core-workload.ts';
import type { OperationOutcome } from './schedule.ts';
import type { TimedStore } from './timed-store.ts';
import type { WorkerWrites } from './acknowledged-writes.ts';

/**
 * One YCSB transaction, as CoreWorkload.doTransaction does it: the workload decides what to do,
 * the timed store does it and measures each store call. With dataintegrity on, every record
 * read back is checked: its values, and that no field asked for is missing (YCSB's VERIFY row).
 * Scans are also checked for key order, always, because docbench promises ordered scans on
 * every store. `dueMs` is when the operation was due under a target rate (undefined when
 * unthrottled); resolves with how it went (a worker's WorkerOperation as it is).
 *
 * Keys, fields and values are all chosen before the store call, so none of it is timed. A read or
 * an update is the store call's own promise (no async step of its own: see TimedStore); the
 * operations with work after their call have small async functions below.
 */
export function doTransaction(
  workload: CoreWorkload,
  store: TimedStore,
  measurements: Measurements,
  verify: boolean,
  dueMs: number | undefined,
  writes?: WorkerWrites,
): Promise<OperationOutcome> {
  store.beginOperation(dueMs);
  if (writes !== undefined) return trackedTransaction(workload, store, measurements, verify, writes);
  switch (workload.nextOperation()) {
    case 'READ': {
      const key = workload.nextTransactionKey();
      const fields = workload.readFields();
      if (verify) return readAndVerify(workload, store, measurements, key, fields);
      return store.read(workload.table, key, fields);
    }
    case 'UPDATE': {
      const key = workload.nextTransactionKey();
      return store.update(workload.table, key, workload.buildUpdate(key));
    }
    case 'INSERT':
      return insert(workload, store);
    case 'SCAN':
      return scan(workload, store, measurements, verify);
    case 'READ-MODIFY-WRITE':
      return readModifyWrite(workload, store, measurements, verify);
  }
}

/**
 * One transaction under the failover check: the same choices as doTransaction's, each write's
 * values those of its next write number (registered with `writes`), settled as acknowledged when
 * the store answered OK.
 */
async function trackedTransaction(
  workload: CoreWorkload,
  store: TimedStore,
  measurements: Measurements,
  verify: boolean,
  writes: WorkerWrites,
): Promise<OperationOutcome> {
  writes.begin();
  switch (workload.nextOperation()) {
    case 'READ': {
      const key = workload.nextTransactionKey();
      const fields = workload.readFields();
      return verify
        ? readAndVerify(workload, store, measurements, key, fields)
        : store.read(workload.table, key, fields);
    }
    case 'UPDATE': {
      const key = workload.nextTransactionKey();
      const values = workload.buildTrackedValues(key, workload.lastKeyNumber, writes, false);
      return settled(writes, store, await store.update(workload.table, key, values));
    }
    case 'INSERT': {
      const { key, keyNumber } = workload.nextInsertKey();
      const values = workload.buildTrackedValues(key, keyNumber, writes, true);
      try {
        return settled(writes, store, await store.insert(workload.table, key, values));
      } finally {
        workload.acknowledgeInsert(keyNumber);
      }
    }
    case 'SCAN':
      return scan(workload, store, measurements, verify);
    case 'READ-MODIFY-WRITE': {
      const table = workload.table;
      const key = workload.nextTransactionKey();
      const fields = workload.readFields();
      const values = workload.buildTrackedValues(key, workload.lastKeyNumber, writes, false);
      await store.read(table, key, fields);
      const record = store.record;
      const readStatus = store.lastStatus;
      const readStartMs = store.lastStartMs;
      const outcome = settled(writes, store, await store.update(table, key, values));
      const status = readStatus !== 'OK' ? readStatus : store.lastStatus;
      measurements.measure(
        'READ-MODIFY-WRITE',
        status,
        store.intendedStartMs ?? readStartMs,
        readStartMs,
        store.lastEndMs,
      );
      if (verify && record) verifyRecord(workload, measurements, key, record, fields);
      return outcome;
    }
  }
}

/** The write's registers settled: acknowledged when its call answered OK. */
function settled(writes: WorkerWrites, store: TimedStore, outcome: OperationOutcome): OperationOutcome {
  writes.settle(store.lastStatus === 'OK');
  return outcome;
}

async function readAndVerify(
  workload: CoreWorkload,
  store: TimedStore,
  measurements: Measurements,
  key: string,
  fields: Requested,
): Promise<OperationOutcome> {
  const outcome = await store.read(workload.table, key, fields);
  if (store.record) verifyRecord(workload, measurements, key, store.record, fields);
  return outcome;
}

async function insert(workload: CoreWorkload, store: TimedStore): Promise<OperationOutcome> {
  const { key, keyNumber } = workload.nextInsertKey();
  const values = workload.buildValues(key);
  try {
    return await store.insert(workload.table, key, values);
  } finally {
    // YCSB acknowledges even a failed insert, so the key space keeps advancing.
    workload.acknowledgeInsert(keyNumber);
  }
}

async function scan(
  workload: CoreWorkload,
  store: TimedStore,
  measurements: Measurements,
  verify: boolean,
): Promise<OperationOutcome> {
  const startKey = workload.nextTransactionKey();
  const fields = workload.scanFields();
  const outcome = await store.scan(workload.table, startKey, workload.nextScanLength(), fields);
  // Keys only (scankeysonly): their order is all there is to check.
  const checkFields = verify && (fields === null || fields.length > 0);
  if (store.records) verifyScan(workload, measurements, startKey, store.records, checkFields ? fields : undefined);
  return outcome;
}

/**
 * As YCSB's doTransactionReadModifyWrite: key, fields and new values are chosen before the clock
 * starts, the read record is checked after it stops, and the row spans both calls.
 */
async function readModifyWrite(
  workload: CoreWorkload,
  store: TimedStore,
  measurements: Measurements,
  verify: boolean,
): Promise<OperationOutcome> {
  const table = workload.table;
  const key = workload.nextTransactionKey();
  const fields = workload.readFields();
  const values = workload.buildUpdate(key);
  await store.read(table, key, fields);
  const record = store.record;
  const readStatus = store.lastStatus;
  const readStartMs = store.lastStartMs;
  const outcome = await store.update(table, key, values);
  const status = readStatus !== 'OK' ? readStatus : store.lastStatus;
  measurements.measure('READ-MODIFY-WRITE', status, store.intendedStartMs ?? readStartMs, readStartMs, store.lastEndMs);
  if (verify && record) verifyRecord(workload, measurements, key, record, fields);
  return outcome;
}

function verifyRecord(
  workload: CoreWorkload,
  measurements: Measurements,
  key: string,
  record: FieldMap,
  requested: Requested,
): void {
  const start = performance.now();
  const problem = integrityProblem(workload, key, record, requested);
  measurements.measureCheck(problem === undefined ? 'OK' : 'UNEXPECTED_STATE', performance.now() - start, problem);
}

/** The fields a read asked for: null is all of them. */
type Requested = readonly string[] | null;

/**
 * Why a record read back fails its integrity check, or undefined when it passes: every field
 * asked for must be there (a record that lost a field is as corrupt as one with a wrong value,
 * and checking only the fields that came back would pass it) and hold YCSB's value for it.
 */
function integrityProblem(
  workload: CoreWorkload,
  key: string,
  record: FieldMap,
  requested: Requested,
): string | undefined {
  const missing = (requested ?? workload.fieldNames).filter((field) => !Object.hasOwn(record, field));
  if (missing.length > 0) return `record ${key} lacks ${missing.join(', ')}: failed its integrity check`;
  return workload.verify(key, record) ? undefined : `record ${key} failed its integrity check`;
}

/**
 * Scans must come back in strictly ascending key order, starting at or after the start key; with
 * dataintegrity on (`requested` given), each record must also pass its integrity check.
 */
function verifyScan(
  workload: CoreWorkload,
  measurements: Measurements,
  startKey: string,
  records: readonly KeyedRecord[],
  requested: Requested | undefined,
): void {
  const start = performance.now();
  let problem: string | undefined;
  let previous = startKey;
  for (let i = 0; i < records.length && problem === undefined; i++) {
    const key = records[i]!.key;
    if (i === 0 ? key < previous : key <= previous) {
      problem = `scan from ${startKey} returned ${key} after ${previous}: not in ascending key order`;
    } else if (requested !== undefined) {
      const broken = integrityProblem(workload, key, records[i]!.fields, requested);
      if (broken !== undefined) problem = `${broken} (in a scan)`;
    }
    previous = key;
  }
  measurements.measureCheck(problem === undefined ? 'OK' : 'UNEXPECTED_STATE', performance.now() - start, problem);
}

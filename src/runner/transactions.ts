import type { Measurements } from '../measure/measurements.ts';
import type { FieldMap, KeyedRecord } from '../stores/store.ts';
import type { CoreWorkload } from '../workload/core-workload.ts';
import type { TimedStore } from './timed-store.ts';

/**
 * One YCSB transaction, as CoreWorkload.doTransaction does it: the workload decides what to do,
 * the timed store does it and measures each store call. With dataintegrity on, every record
 * read back is checked: its values, and that no field asked for is missing (YCSB's VERIFY row).
 * Scans are also checked for key order, always, because docbench promises ordered scans on
 * every store.
 */
export async function doTransaction(workload: CoreWorkload, store: TimedStore, measurements: Measurements, verify: boolean): Promise<void> {
  const table = workload.table;
  switch (workload.nextOperation()) {
    case 'READ': {
      const key = workload.nextTransactionKey();
      const fields = workload.readFields();
      const { value: record } = await store.read(table, key, fields);
      if (verify && record) verifyRecord(workload, measurements, key, record, fields);
      return;
    }
    case 'UPDATE': {
      const key = workload.nextTransactionKey();
      await store.update(table, key, workload.buildUpdate(key));
      return;
    }
    case 'INSERT': {
      const { key, keyNumber } = workload.nextInsertKey();
      try {
        await store.insert(table, key, workload.buildValues(key));
      } finally {
        // YCSB acknowledges even a failed insert, so the key space keeps advancing.
        workload.acknowledgeInsert(keyNumber);
      }
      return;
    }
    case 'SCAN': {
      const startKey = workload.nextTransactionKey();
      const fields = workload.readFields();
      const { value: records } = await store.scan(table, startKey, workload.nextScanLength(), fields);
      if (records) verifyScan(workload, measurements, startKey, records, verify ? fields : undefined);
      return;
    }
    case 'READ-MODIFY-WRITE': {
      // As YCSB's doTransactionReadModifyWrite: key, fields and new values are chosen before the
      // clock starts, the read record is checked after it stops, and the row spans both calls.
      const key = workload.nextTransactionKey();
      const fields = workload.readFields();
      const values = workload.buildUpdate(key);
      const read = await store.read(table, key, fields);
      const update = await store.update(table, key, values);
      const status = read.status !== 'OK' ? read.status : update.status;
      measurements.measure('READ-MODIFY-WRITE', status, store.intendedStartMs ?? read.startMs, read.startMs, update.endMs);
      if (verify && read.value) verifyRecord(workload, measurements, key, read.value, fields);
      return;
    }
  }
}

function verifyRecord(workload: CoreWorkload, measurements: Measurements, key: string, record: FieldMap, requested: Requested): void {
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
function integrityProblem(workload: CoreWorkload, key: string, record: FieldMap, requested: Requested): string | undefined {
  const missing = (requested ?? workload.fieldNames).filter((field) => !Object.hasOwn(record, field));
  if (missing.length > 0) return `record ${key} lacks ${missing.join(', ')}: failed its integrity check`;
  return workload.verify(key, record) ? undefined : `record ${key} failed its integrity check`;
}

/**
 * Scans must come back in strictly ascending key order, starting at or after the start key; with
 * dataintegrity on (`requested` given), each record must also pass its integrity check.
 */
function verifyScan(workload: CoreWorkload, measurements: Measurements, startKey: string, records: readonly KeyedRecord[], requested: Requested | undefined): void {
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

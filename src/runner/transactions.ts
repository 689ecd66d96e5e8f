import type { Measurements } from '../measure/measurements.ts';
import type { KeyedRecord } from '../stores/store.ts';
import type { CoreWorkload } from '../workload/core-workload.ts';
import type { TimedStore } from './timed-store.ts';

/**
 * One YCSB transaction, as CoreWorkload.doTransaction does it: the workload decides what to do,
 * the timed store does it and measures each store call. With dataintegrity on, every record
 * read back is checked (YCSB's VERIFY row); scans are also checked for key order, always,
 * because docbench promises ordered scans on every store.
 */
export async function doTransaction(workload: CoreWorkload, store: TimedStore, measurements: Measurements, verify: boolean): Promise<void> {
  const table = workload.table;
  switch (workload.nextOperation()) {
    case 'READ': {
      const key = workload.nextTransactionKey();
      const { value: record } = await store.read(table, key, workload.readFields());
      if (verify && record) verifyRecord(workload, measurements, key, record);
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
      const { value: records } = await store.scan(table, startKey, workload.nextScanLength(), workload.readFields());
      if (records) verifyScan(workload, measurements, startKey, records, verify);
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
      if (verify && read.value) verifyRecord(workload, measurements, key, read.value);
      return;
    }
  }
}

function verifyRecord(workload: CoreWorkload, measurements: Measurements, key: string, fields: Record<string, string>): void {
  const start = performance.now();
  const ok = workload.verify(key, fields);
  measurements.measureCheck(ok ? 'OK' : 'UNEXPECTED_STATE', performance.now() - start, ok ? undefined : `record ${key} failed its integrity check`);
}

/** Scans must come back in strictly ascending key order, starting at or after the start key. */
function verifyScan(workload: CoreWorkload, measurements: Measurements, startKey: string, records: readonly KeyedRecord[], verify: boolean): void {
  const start = performance.now();
  let problem: string | undefined;
  let previous = startKey;
  for (let i = 0; i < records.length && problem === undefined; i++) {
    const key = records[i]!.key;
    if (i === 0 ? key < previous : key <= previous) {
      problem = `scan from ${startKey} returned ${key} after ${previous}: not in ascending key order`;
    } else if (verify && !workload.verify(key, records[i]!.fields)) {
      problem = `record ${key} from a scan failed its integrity check`;
    }
    previous = key;
  }
  measurements.measureCheck(problem === undefined ? 'OK' : 'UNEXPECTED_STATE', performance.now() - start, problem);
}

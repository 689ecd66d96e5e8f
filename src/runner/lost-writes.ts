/**
 * The failover check's reading back (`failovercheck=true`), after the run: every key with an
 * acknowledged write is read whole, once, and each field whose write was acknowledged is
 * compared with what acknowledged-writes.ts kept: a missing record or field, or a field holding
 * a write that had returned before the last acknowledged one was sent, is a lost acknowledged
 * write. Reads go to the store's authoritative read where it has one (none does yet: a
 * Cassandra read at ALL would be one), else its ordinary read with the run's own settings (so at
 * ONE a stale replica can answer), and the result says which; a read that fails is tried again
 * for a while (the store may still be recovering), then counted as unreadable, never as lost or
 * as kept.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { canReadAuthoritatively, type FieldMap, type Store } from '../stores/store.ts';
import type { CoreWorkload } from '../workload/core-workload.ts';
import { writeOf } from '../workload/versioned-values.ts';
import type { LostWrites } from '../results/schema.ts';
import type { AcknowledgedWrites } from './acknowledged-writes.ts';

/** Reads in flight while reading back. */
const READERS = 16;
/** A read that fails is tried this many times, this far apart. */
const ATTEMPTS = 5;
const RETRY_MS = 1000;
const SAMPLES = 5;

export async function checkAcknowledgedWrites(
  store: Store,
  workload: CoreWorkload,
  writes: AcknowledgedWrites,
  fieldLength: number,
): Promise<LostWrites> {
  const started = performance.now();
  const fields = workload.fieldNames;
  const read = canReadAuthoritatively(store)
    ? (key: string) => store.readAuthoritatively(workload.table, key)
    : (key: string) => store.read(workload.table, key, null);
  const counts = {
    checkedRecords: 0,
    checkedFields: 0,
    lostFields: 0,
    lostRecords: 0,
    missingRecords: 0,
    unrecognisedFields: 0,
    unreadableRecords: 0,
  };
  const samples: string[] = [];
  let next = 0;

  const checkKey = async (keyNumber: number) => {
    const base = keyNumber * fields.length;
    let acknowledged = 0;
    for (let f = 0; f < fields.length; f++) if (writes.ackedFloor(base + f) > 0) acknowledged++;
    if (acknowledged === 0) return;
    const key = workload.keyName(keyNumber);
    const record = await readWithRetries(read, key);
    if (record === undefined) {
      counts.unreadableRecords++;
      return;
    }
    counts.checkedRecords++;
    counts.checkedFields += acknowledged;
    if (record === null) counts.missingRecords++;
    let lost = 0;
    for (let f = 0; f < fields.length; f++) {
      const floor = writes.ackedFloor(base + f) - 1;
      if (floor < 0) continue;
      const value = record?.[fields[f]!];
      const n = value === undefined ? -1 : writeOf(key, fields[f]!, value, fieldLength);
      if (value !== undefined && n < 0) {
        counts.unrecognisedFields++;
        if (samples.length < SAMPLES)
          samples.push(`${key} ${fields[f]}: holds a value no write of this run's scheme made`);
      } else if (n < floor) {
        lost++;
        // One sample per record: a record gone whole would otherwise fill them all.
        if (lost === 1 && samples.length < SAMPLES) {
          samples.push(
            value === undefined
              ? `${key} ${fields[f]}: ${record === null ? 'the record' : 'the field'} is gone, though write ${floor} or a later one was acknowledged`
              : `${key} ${fields[f]}: holds write ${n}, though write ${floor} or a later one was acknowledged after write ${n} had returned`,
          );
        }
      }
    }
    counts.lostFields += lost;
    if (lost > 0) counts.lostRecords++;
  };

  await Promise.all(
    Array.from({ length: READERS }, async () => {
      while (next < writes.keys) await checkKey(next++);
    }),
  );
  return {
    ...counts,
    untrackedWrites: writes.untracked,
    droppedFields: writes.dropped,
    readWith: canReadAuthoritatively(store) ? store.authoritativeRead : "the store's ordinary read",
    seconds: Math.round((performance.now() - started) / 100) / 10,
    samples,
  };
}

/** The record (null: not there), or undefined when every attempt failed. */
async function readWithRetries(
  read: (key: string) => Promise<FieldMap | null>,
  key: string,
): Promise<FieldMap | null | undefined> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    try {
      return await read(key);
    } catch {
      if (attempt < ATTEMPTS) await sleep(RETRY_MS);
    }
  }
  return undefined;
}

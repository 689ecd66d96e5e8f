/**
 * A YCSB transaction over HTTP: the same CoreWorkload as the direct runner (`src/workload/`,
 * imported as it is) decides the operation, key, fields and values; this module turns each
 * decision into a request to `docbench serve` and records it under YCSB's row names.
 *
 * One difference from a direct run, and why: k6 runs each VU in its own JavaScript runtime, so
 * the workload object cannot be shared by all workers as YCSB shares it. Each VU has its own
 * CoreWorkload (its own seeded random stream) with the same properties. Reads, updates and scans
 * need nothing more. Inserts do: every VU would otherwise insert the same new keys, so each VU
 * owns every VU-count-th number of the insert key space (VU i of n inserts recordcount + i,
 * recordcount + i + n, …), and its reads of new records go to records it inserted itself.
 */
import http from 'k6/http';
import exec from 'k6/execution';
import { fail } from 'k6';
import type { KeyedRecord } from '../../src/stores/store.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import type { WorkloadProperties } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';
import { statusOfHttp, YCSB_OPERATIONS, type Status } from './metric-names.ts';
import { defineOperations, recordCheck, recordOperation } from './metrics.ts';
import { serviceInfo, startRun, type SetupBase } from './service.ts';
import type { LoadSettings } from './settings.ts';
import { flatProperties } from './summary.ts';

/** What setup() hands every VU (k6 passes it as JSON). */
export interface SetupData extends SetupBase {
  /** Most VUs of the run: the stride of the insert key space. */
  maxVus: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };

// Every YCSB script records the same five rows (those a workload never runs stay empty).
defineOperations(YCSB_OPERATIONS);

/** One VU's view of the workload: CoreWorkload plus its slice of the insert key space. */
class VuWorkload {
  readonly core: CoreWorkload;
  private readonly loaded: number;

  constructor(
    p: WorkloadProperties,
    private readonly vuIndex: number,
    private readonly vuCount: number,
  ) {
    // Stream vuIndex + 1: stream 0 is the direct runner's own sequence.
    this.core = new CoreWorkload(p, new Random(p.seed, vuIndex + 1));
    this.loaded = p.recordcount;
  }

  /** Key for read/update/scan/read-modify-write: YCSB's choice, mapped into this VU's inserts. */
  transactionKey(): string {
    return this.core.keyName(this.globalNumber(this.core.nextKeyNumber()));
  }

  insertKey(): { key: string; keyNumber: number } {
    const { keyNumber } = this.core.nextInsertKey();
    return { key: this.core.keyName(this.globalNumber(keyNumber)), keyNumber };
  }

  private globalNumber(local: number): number {
    return local < this.loaded ? local : this.loaded + (local - this.loaded) * this.vuCount + this.vuIndex;
  }
}

let vu: VuWorkload | null = null;

/**
 * setup(): learn the workload and store from the service, check the table is loaded, and take the
 * first snapshot of the service's CPU. `expectedWorkload` (e.g. `workloada`) makes a script for
 * one workload refuse a service started with another.
 */
export function setupRun(settings: LoadSettings, maxVus: number, expectedWorkload: string | null): SetupData {
  const info = serviceInfo(settings);
  const workload = info.workload;
  if (expectedWorkload !== null && workload.name !== expectedWorkload) {
    fail(`this script runs ${expectedWorkload}, but the service was started with ${workload.name}: start it with -P ${expectedWorkload}`);
  }
  const p = workload.properties;
  if (p.insertcount > 0) {
    const core = new CoreWorkload(p, new Random(p.seed));
    const first = core.keyName(p.insertstart);
    const probe = http.get(`${settings.baseUrl}/${p.table}/${encodeURIComponent(first)}`, { tags: { name: 'docbench loaded?' }, responseType: 'none' });
    if (probe.status === 404) fail(`${p.table} has no record ${first}: load it first (docbench load --store ${info.store!.name} -P ${workload.name} …), or use docbench k6, which loads`);
  }
  const run = {
    kind: 'ycsb',
    workloadName: workload.name,
    properties: flatProperties(p),
    rows: YCSB_OPERATIONS,
    notes: ['each VU runs its own CoreWorkload (same properties, its own random stream); inserts take per-VU slices of the key space'],
  };
  return { ...startRun(settings, info, run), maxVus };
}

/** One YCSB operation (one k6 iteration), as CoreWorkload.doTransaction does it. */
export function runOperation(settings: LoadSettings, data: SetupData): void {
  if (vu === null) {
    const index = exec.vu.idInTest - 1;
    if (index >= data.maxVus) fail(`VU ${exec.vu.idInTest} is beyond the ${data.maxVus} VUs the insert key space was divided for`);
    vu = new VuWorkload(data.info.workload.properties, index, data.maxVus);
  }
  const core = vu.core;
  const p = data.info.workload.properties;
  const base = `${settings.baseUrl}/${p.table}`;
  const verify = p.dataintegrity;

  const read = (key: string): { status: Status; ms: number } => {
    const fields = core.readFields();
    const query = fields === null ? '' : `?fields=${fields.join(',')}`;
    const response = http.get(`${base}/${encodeURIComponent(key)}${query}`, {
      tags: { op: 'READ', name: `GET /${p.table}/:key` },
      responseType: verify ? 'text' : 'none',
    });
    const status = statusOfHttp(response.status);
    if (verify && status === 'OK') recordCheck(core.verify(key, (response.json() as unknown as { fields: Record<string, string> }).fields));
    return { status, ms: response.timings.duration };
  };
  const update = (key: string): { status: Status; ms: number } => {
    const response = http.put(`${base}/${encodeURIComponent(key)}`, JSON.stringify(core.buildUpdate(key)), {
      headers: JSON_HEADERS,
      tags: { op: 'UPDATE', name: `PUT /${p.table}/:key` },
      responseType: 'none',
    });
    return { status: statusOfHttp(response.status), ms: response.timings.duration };
  };

  switch (core.nextOperation()) {
    case 'READ': {
      const r = read(vu.transactionKey());
      recordOperation('READ', r.status, r.ms);
      return;
    }
    case 'UPDATE': {
      const u = update(vu.transactionKey());
      recordOperation('UPDATE', u.status, u.ms);
      return;
    }
    case 'INSERT': {
      const { key, keyNumber } = vu.insertKey();
      try {
        const response = http.post(base, JSON.stringify({ key, fields: core.buildValues(key) }), {
          headers: JSON_HEADERS,
          tags: { op: 'INSERT', name: `POST /${p.table}` },
          responseType: 'none',
        });
        recordOperation('INSERT', statusOfHttp(response.status), response.timings.duration);
      } finally {
        // As YCSB does: acknowledged even when it failed, so the key space keeps advancing.
        core.acknowledgeInsert(keyNumber);
      }
      return;
    }
    case 'SCAN': {
      const start = vu.transactionKey();
      const count = core.nextScanLength();
      const fields = core.readFields();
      const response = http.get(`${base}?start=${encodeURIComponent(start)}&count=${count}${fields === null ? '' : `&fields=${fields.join(',')}`}`, {
        tags: { op: 'SCAN', name: `GET /${p.table}?start&count` },
        responseType: 'text',
      });
      const status = statusOfHttp(response.status);
      recordOperation('SCAN', status, response.timings.duration);
      if (status === 'OK') recordCheck(scanIsValid(core, start, (response.json() as unknown as { records: KeyedRecord[] }).records, verify));
      return;
    }
    case 'READ-MODIFY-WRITE': {
      const key = vu.transactionKey();
      const r = read(key);
      recordOperation('READ', r.status, r.ms);
      const u = update(key);
      recordOperation('UPDATE', u.status, u.ms);
      recordOperation('READ-MODIFY-WRITE', r.status !== 'OK' ? r.status : u.status, r.ms + u.ms);
      return;
    }
  }
}

/** Scans come back in strictly ascending key order from the start key (and verified records, with dataintegrity). */
function scanIsValid(core: CoreWorkload, startKey: string, records: readonly KeyedRecord[], verify: boolean): boolean {
  let previous = startKey;
  for (let i = 0; i < records.length; i++) {
    const key = records[i]!.key;
    if (i === 0 ? key < previous : key <= previous) return false;
    if (verify && !core.verify(key, records[i]!.fields)) return false;
    previous = key;
  }
  return true;
}

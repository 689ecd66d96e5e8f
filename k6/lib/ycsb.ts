/**
 * YCSB transactions over HTTP: the same CoreWorkload as the direct runner (`src/workload/`,
 * imported as it is) decides the operation, key, fields and values; this module turns each
 * decision into a request to `docbench serve` and records it under YCSB's row names.
 *
 * Who decides (src/service/ycsb-plan.ts says why): for a workload whose operations do not depend
 * on earlier ones (no inserts, keys not in sequence), the service draws them in blocks and a VU
 * runs a block's operations one per iteration; a block is fetched between operations, tagged
 * apart, not timed. Otherwise each VU runs its own CoreWorkload (its own seeded random stream,
 * same properties): k6 runs each VU in its own JavaScript runtime, so the workload object cannot
 * be shared by all workers as YCSB shares it, and inserts need one more thing: every VU would
 * otherwise insert the same new keys, so each VU owns every VU-count-th number of the insert key
 * space (VU i of n inserts recordcount + i, recordcount + i + n, …), and its reads of new records
 * go to records it inserted itself.
 *
 * What an operation costs k6 is what an end-to-end run can measure at most, and k6 runs
 * JavaScript in an interpreter: the hot path allocates nothing it can keep (request parameters
 * are built once per VU) and adds no metric sample when the operation succeeds (metric-names.ts).
 */
import http, { type Params, type Response } from 'k6/http';
import exec from 'k6/execution';
import { fail } from 'k6';
import { PLAN_LETTERS, planLines, requestParts, unplannable } from '../../src/service/ycsb-plan.ts';
import type { KeyedRecord } from '../../src/stores/store.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import type { WorkloadProperties } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';
import { statusOfHttp, successStatusOf, YCSB_OPERATIONS, type Status } from './metric-names.ts';
import { checkAnswer, defineOperations, recordCompound, recordFailure } from './metrics.ts';
import { operationParams, serviceHeaders, serviceInfo, startRun, type SetupBase } from './service.ts';
import type { LoadSettings } from './settings.ts';
import { flatProperties } from './summary.ts';

/** What setup() hands every VU (k6 passes it as JSON). */
export interface SetupData extends SetupBase {
  /** True: the service draws the operations in blocks; false: each VU draws its own. */
  planned: boolean;
}

// Every YCSB script records the same five rows (those a workload never runs stay empty).
defineOperations(YCSB_OPERATIONS);

/**
 * Operations per plan block: a VU's first block is small and each next one twice the size, up to
 * a thousand (a block's fetch and parse then cost a VU about one request per thousand
 * operations). Small first blocks keep many VUs starting together (an open model allocates them
 * all up front) from asking the service for more than they will run before the run ends.
 */
const FIRST_PLAN_BLOCK = 50;
const PLAN_BLOCK = 1000;
/** Key names a self-deciding VU keeps: hot keys repeat (zipfian), and a bound keeps a big key space from filling the VU's memory. */
const KEY_NAME_CACHE = 10_000;

/** YCSB's operations as requests, and their outcomes recorded, whoever decided them. */
class YcsbRequests {
  /** CoreWorkload's integrity check (with dataintegrity), and nothing else of it. */
  private readonly verifier: CoreWorkload | null;
  private readonly base: string;
  private readonly readParams: Params;
  private readonly updateParams: Params;
  private readonly insertParams: Params;
  private readonly scanParams: Params;
  /** The last read's or update's response, for READ-MODIFY-WRITE's latency (read only when needed: every property costs). */
  private last: Response | null = null;

  constructor(settings: LoadSettings, p: WorkloadProperties, verifier: CoreWorkload | null) {
    this.verifier = p.dataintegrity ? verifier : null;
    this.base = `${settings.baseUrl}/${p.table}`;
    const json = { 'content-type': 'application/json' };
    this.readParams = operationParams(settings, 'READ', `GET /${p.table}/:key`, this.verifier ? 'text' : 'none');
    this.updateParams = operationParams(settings, 'UPDATE', `PUT /${p.table}/:key`, 'none', json);
    this.insertParams = operationParams(settings, 'INSERT', `POST /${p.table}`, 'none', json);
    this.scanParams = operationParams(settings, 'SCAN', `GET /${p.table}?start&count`, 'text');
  }

  read(key: string, query: string): Status {
    const response = (this.last = http.get(`${this.base}/${key}${query}`, this.readParams));
    if (response.status !== 200) return failed('READ', response);
    if (this.verifier)
      checkAnswer('READ', this.verifier.verify(key, (response.json() as { fields: Record<string, string> }).fields));
    return 'OK';
  }

  update(key: string, body: string): Status {
    const response = (this.last = http.put(`${this.base}/${key}`, body, this.updateParams));
    return response.status === UPDATED ? 'OK' : failed('UPDATE', response);
  }

  readModifyWrite(key: string, query: string, body: string): void {
    const read = this.read(key, query);
    const readMs = this.last!.timings.duration;
    const update = this.update(key, body);
    recordCompound('READ-MODIFY-WRITE', read !== 'OK' ? read : update, readMs + this.last!.timings.duration);
  }

  insert(key: string, body: string): void {
    const response = http.post(this.base, body, this.insertParams);
    if (response.status !== INSERTED) failed('INSERT', response);
  }

  /** `query`: `&count=N[&fields=…]`. */
  scan(start: string, query: string): void {
    const response = http.get(`${this.base}?start=${start}${query}`, this.scanParams);
    if (response.status !== 200) return void failed('SCAN', response);
    checkAnswer('SCAN', scanIsValid(this.verifier, start, (response.json() as { records: KeyedRecord[] }).records));
  }
}

const UPDATED = successStatusOf('UPDATE');
const INSERTED = successStatusOf('INSERT');

/** Record a call that did not answer its route's success status; returns its status. */
function failed(row: string, response: Response): Exclude<Status, 'OK'> {
  const status = statusOfHttp(response.status);
  // A 2xx other than the route's own success status is not what the API promises.
  const outcome = status === 'OK' ? 'UNEXPECTED_STATE' : status;
  recordFailure(row, outcome, response.timings.duration, response.status);
  return outcome;
}

const READ = PLAN_LETTERS.READ.charCodeAt(0);
const UPDATE = PLAN_LETTERS.UPDATE.charCodeAt(0);
const SCAN = PLAN_LETTERS.SCAN.charCodeAt(0);
const READ_MODIFY_WRITE = PLAN_LETTERS['READ-MODIFY-WRITE'].charCodeAt(0);

/** A VU running blocks of operations the service drew. */
class PlannedVu {
  /** The block's lines (src/service/ycsb-plan.ts `planText`): letters, then keys, queries, bodies. */
  private lines: string[] = [''];
  private ops = '';
  private count = 0;
  private next = 0;
  private blocks = 0;
  private readonly params: Params;

  constructor(
    private readonly settings: LoadSettings,
    private readonly requests: YcsbRequests,
    private readonly vuIndex: number,
    private readonly vuCount: number,
  ) {
    this.params = { headers: serviceHeaders(settings), tags: { name: 'docbench plan' }, responseType: 'text' };
  }

  run(): void {
    if (this.next >= this.count) this.fetch();
    const i = this.next++;
    const n = this.count;
    const lines = this.lines;
    // A letter's code, not the letter: a one-character string would be one more object per operation.
    switch (this.ops.charCodeAt(i)) {
      case READ:
        return void this.requests.read(lines[1 + i]!, lines[1 + n + i]!);
      case UPDATE:
        return void this.requests.update(lines[1 + i]!, lines[1 + 2 * n + i]!);
      case SCAN:
        return this.requests.scan(lines[1 + i]!, lines[1 + n + i]!);
      case READ_MODIFY_WRITE:
        return this.requests.readModifyWrite(lines[1 + i]!, lines[1 + n + i]!, lines[1 + 2 * n + i]!);
    }
  }

  private fetch(): void {
    // Streams 1, 2, … in turn over the VUs: no two blocks of a run share one, and none is the direct runner's 0.
    const stream = 1 + this.vuIndex + this.vuCount * this.blocks;
    const size = Math.min(PLAN_BLOCK, FIRST_PLAN_BLOCK * 2 ** this.blocks++);
    const url = `${this.settings.baseUrl}/_docbench/ycsb/plan?stream=${stream}&count=${size}`;
    const response = http.get(url, this.params);
    if (response.status !== 200 || typeof response.body !== 'string')
      fail(`GET ${url} answered ${response.status || response.error}: ${String(response.body).slice(0, 300)}`);
    const { lines, count } = planLines(response.body);
    this.lines = lines;
    this.ops = lines[0]!;
    this.count = count;
    this.next = 0;
  }
}

/** A VU deciding its own operations: CoreWorkload plus its slice of the insert key space. */
class DecidingVu {
  private readonly loaded: number;
  private readonly names = new Map<number, string>();

  constructor(
    p: WorkloadProperties,
    /** This VU's CoreWorkload, on stream vuIndex + 1 (stream 0 is the direct runner's own sequence). */
    private readonly core: CoreWorkload,
    private readonly requests: YcsbRequests,
    private readonly vuIndex: number,
    private readonly vuCount: number,
  ) {
    this.loaded = p.recordcount;
  }

  /** One YCSB operation, as CoreWorkload.doTransaction does it. */
  run(): void {
    const op = this.core.nextOperation();
    if (op === 'INSERT') return this.insert();
    const key = this.keyName(this.globalNumber(this.core.nextKeyNumber()));
    const { query, body } = requestParts(this.core, op, key);
    if (op === 'READ') this.requests.read(key, query);
    else if (op === 'UPDATE') this.requests.update(key, body);
    else if (op === 'SCAN') this.requests.scan(key, query);
    else this.requests.readModifyWrite(key, query, body);
  }

  private insert(): void {
    const { keyNumber } = this.core.nextInsertKey();
    const key = this.keyName(this.globalNumber(keyNumber));
    try {
      this.requests.insert(key, JSON.stringify({ key, fields: this.core.buildValues(key) }));
    } finally {
      // As YCSB does: acknowledged even when it failed, so the key space keeps advancing.
      this.core.acknowledgeInsert(keyNumber);
    }
  }

  /** Key names are a pure function of the key number (an FNV-64 hash): made once. */
  private keyName(n: number): string {
    let name = this.names.get(n);
    if (name === undefined) {
      name = this.core.keyName(n);
      if (this.names.size < KEY_NAME_CACHE) this.names.set(n, name);
    }
    return name;
  }

  private globalNumber(local: number): number {
    return local < this.loaded ? local : this.loaded + (local - this.loaded) * this.vuCount + this.vuIndex;
  }
}

let vu: PlannedVu | DecidingVu | null = null;

/**
 * setup(): learn the workload and store from the service, check the table is loaded, and take the
 * first snapshot of the service's CPU. `expectedWorkload` (e.g. `workloada`) makes a script for
 * one workload refuse a service started with another.
 */
export function setupRun(settings: LoadSettings, expectedWorkload: string | null): SetupData {
  const info = serviceInfo(settings);
  const workload = info.workload;
  if (expectedWorkload !== null && workload.name !== expectedWorkload) {
    fail(
      `this script runs ${expectedWorkload}, but the service was started with ${workload.name}: start it with -P ${expectedWorkload}`,
    );
  }
  const p = workload.properties;
  if (p.insertcount > 0) {
    const core = new CoreWorkload(p, new Random(p.seed));
    const first = core.keyName(p.insertstart);
    const probe = http.get(`${settings.baseUrl}/${p.table}/${encodeURIComponent(first)}`, {
      headers: serviceHeaders(settings),
      tags: { name: 'docbench loaded?' },
      responseType: 'none',
      responseCallback: http.expectedStatuses(200, 404),
    });
    if (probe.status === 404)
      fail(
        `${p.table} has no record ${first}: load it first (docbench load --store ${info.store!.name} -P ${workload.name} …), or use docbench k6, which loads`,
      );
  }
  const whyNot = unplannable(p);
  const run = {
    kind: 'ycsb',
    workloadName: workload.name,
    properties: flatProperties(p),
    rows: YCSB_OPERATIONS,
    notes: [
      whyNot === null
        ? `operations drawn by the service's CoreWorkload in blocks (of ${FIRST_PLAN_BLOCK}, doubling up to ${PLAN_BLOCK}), each on a random stream of its own (fetched between operations, not timed), so k6's CPU goes to the requests`
        : `each VU runs its own CoreWorkload (same properties, its own random stream), since the service cannot draw this workload in blocks: ${whyNot}; inserts take per-VU slices of the key space`,
    ],
  };
  return { ...startRun(settings, info, run), planned: whyNot === null };
}

/** The iteration function: one YCSB operation per k6 iteration, the VU's runner made on its first. */
export function ycsbIteration(settings: LoadSettings): (data: SetupData) => void {
  return (data) => (vu ??= vuFor(settings, data)).run();
}

function vuFor(settings: LoadSettings, data: SetupData): PlannedVu | DecidingVu {
  const index = exec.vu.idInTest - 1;
  if (index >= data.maxVus)
    fail(`VU ${exec.vu.idInTest} is beyond the ${data.maxVus} VUs the insert key space was divided for`);
  const p = data.info.workload.properties;
  // A VU running plans needs a CoreWorkload only to verify answers (each one holds a 1 MiB window of insert acknowledgements).
  if (data.planned)
    return new PlannedVu(
      settings,
      new YcsbRequests(settings, p, p.dataintegrity ? new CoreWorkload(p, new Random(p.seed, index + 1)) : null),
      index,
      data.maxVus,
    );
  const core = new CoreWorkload(p, new Random(p.seed, index + 1));
  return new DecidingVu(p, core, new YcsbRequests(settings, p, core), index, data.maxVus);
}

/** Scans come back in strictly ascending key order from the start key (and verified records, with dataintegrity). */
function scanIsValid(verifier: CoreWorkload | null, startKey: string, records: readonly KeyedRecord[]): boolean {
  let previous = startKey;
  for (let i = 0; i < records.length; i++) {
    const key = records[i]!.key;
    if (i === 0 ? key < previous : key <= previous) return false;
    if (verifier && !verifier.verify(key, records[i]!.fields)) return false;
    previous = key;
  }
  return true;
}

/**
 * The operations of a scenario file's mix on one event loop: choose the operation by its
 * proportion, time the store call (its row is the operation's name), check the answer.
 *
 *   a query   takes one of its parameter sets (drawn and answered by the oracle before the run)
 *             and compares the store's answer with the oracle's summary: a lookup, not a query
 *             evaluated again, so the check costs next to nothing (the VERIFY row)
 *   a write   insert: a new document, generated as the seeded ones are (index count + k·W + w);
 *             update: new values of its fields for a seeded document of this worker's share
 *             (index ≡ w mod W), so no two workers write one document and a read-back sees its
 *             own write; delete: a seeded document of the worker's share. A sample of writes is
 *             read back (READBACK row) and checked against what the worker wrote.
 *
 * Every write is recorded (`touched`): after the run the seeded state is put back (run.ts).
 */
import type { Measurements } from '../../src/measure/measurements.ts';
import { timed } from '../../src/measure/timed.ts';
import type { RunControl, WorkerOperation } from '../../src/runner/schedule.ts';
import { DiscreteGenerator } from '../../src/workload/generators/discrete.ts';
import type { Random } from '../../src/workload/random.ts';
import { canonical, checkAnswer, type Answer } from './answers.ts';
import type { FileDialect } from './dialect.ts';
import type { Doc, Value } from './generator.ts';
import type { Collection, Query, Scenario, Write } from './model.ts';
import type { PoolEntry } from './oracle.ts';

export const READBACK_ROW = 'READBACK';

/** What a run's writes changed, to be undone. */
export interface Touched {
  /** Seeded documents updated or deleted: collection -> indexes. */
  seeded: Map<string, Set<number>>;
  /** Documents inserted: collection -> indexes. */
  inserted: Map<string, Set<number>>;
}

export function newTouched(): Touched {
  return { seeded: new Map(), inserted: new Map() };
}

export interface OperationsOptions {
  scenario: Scenario;
  dialect: FileDialect;
  store: string;
  /** The mix as this store runs it (refused queries left out). */
  mix: readonly [string, number][];
  pools: ReadonlyMap<string, PoolEntry[]>;
  measurements: Measurements;
  control: RunControl;
  random: Random;
  /** Workers in the whole run, and the index of this loop's first. */
  threadcount: number;
  firstWorker: number;
  touched: Touched;
}

/** Tries at finding a document of the worker's share it has not deleted. */
const SHARE_TRIES = 20;

export class Operations {
  /** The first wrong answer, which stops the run. */
  mismatch: string | undefined;
  private readonly choose: DiscreteGenerator<string>;
  private workers = 0;

  constructor(private readonly o: OperationsOptions) {
    this.choose = new DiscreteGenerator<string>(o.random, o.mix);
  }

  /** A worker's operation for the run loop; each worker has its number, its share of documents and its own state. */
  worker(): WorkerOperation {
    const w = this.o.firstWorker + this.workers++;
    const state = new WorkerState(w, this.o.threadcount);
    return (dueMs) => this.run(this.choose.nextValue(), state, dueMs);
  }

  private async run(op: string, state: WorkerState, dueMs: number | undefined): Promise<void> {
    const query = this.o.scenario.queries.get(op);
    if (query !== undefined) return this.runQuery(query, dueMs);
    return this.runWrite(this.o.scenario.writes.get(op)!, state, dueMs);
  }

  private async runQuery(query: Query, dueMs: number | undefined): Promise<void> {
    const pool = this.o.pools.get(query.name)!;
    const entry = pool[this.o.random.nextInt(pool.length)]!;
    const t = await timed(() => this.o.dialect.query(query, entry.params));
    this.o.measurements.measure(query.name, t.status, dueMs ?? t.startMs, t.startMs, t.endMs, t.error);
    if (t.status !== 'OK') return;
    this.check(query.name, entry.params, () => checkAnswer(query, entry.expected, t.value as Answer));
  }

  private check(operation: string, params: unknown, verify: () => string | undefined): void {
    const start = performance.now();
    const problem = verify();
    const ms = performance.now() - start;
    if (problem === undefined) return this.o.measurements.measureCheck('OK', ms);
    const message = `${this.o.store} ${operation} ${JSON.stringify(params)}: ${problem}`;
    this.o.measurements.measureCheck('UNEXPECTED_STATE', ms, message);
    this.mismatch ??= message;
    this.o.control.stop();
  }

  private async runWrite(write: Write, state: WorkerState, dueMs: number | undefined): Promise<void> {
    const collection = this.o.scenario.collections.get(write.collection)!;
    const { dialect, measurements } = this.o;
    let expected: Doc | null;
    let call: () => Promise<boolean>;
    let id: string;
    if (write.kind === 'insert') {
      const index = collection.count + state.nextInsert(write.collection) * this.o.threadcount + state.worker;
      const doc = collection.generator.generate(index);
      remember(this.o.touched.inserted, write.collection, index);
      id = String(doc._id);
      expected = doc;
      call = async () => {
        await dialect.insert(collection, doc);
        return true;
      };
    } else {
      const index = state.pick(collection, this.o.random);
      if (index === undefined) return; // every document of the share deleted: nothing left to write
      const before = state.current(collection, index);
      id = String(before._id);
      remember(this.o.touched.seeded, write.collection, index);
      if (write.kind === 'delete') {
        state.deleted(collection.name, index);
        expected = null;
        call = () => dialect.delete(collection, before);
      } else {
        const after = applyPatch(before, collection.generator.patch(index, state.nextVersion(), write.set));
        state.updated(collection.name, index, after);
        expected = after;
        call = () => dialect.update(collection, before, after, write.set);
      }
    }
    const t = await timed(call, (found) => (found ? 'OK' : 'NOT_FOUND'));
    measurements.measure(write.name, t.status, dueMs ?? t.startMs, t.startMs, t.endMs, t.error);
    if (t.status !== 'OK' || this.o.random.nextDouble() >= this.o.scenario.run.readbacksample) return;
    // After a delete, finding nothing is the read's right answer, not a miss.
    const back = await timed(
      () => dialect.read(collection, id),
      (d) => (d === null && expected !== null ? 'NOT_FOUND' : 'OK'),
    );
    measurements.measure(READBACK_ROW, back.status, back.startMs, back.startMs, back.endMs, back.error);
    if (back.status !== 'OK' && back.status !== 'NOT_FOUND') return;
    const got = (back.value as Doc | null | undefined) ?? null;
    this.check(write.name, { readBack: id }, () => {
      if (expected === null) return got === null ? undefined : `${id} is still there after its delete`;
      if (got === null) return `${id} is not there after the ${write.kind}`;
      return canonical(got) === canonical(expected)
        ? undefined
        : `read back ${canonical(got).slice(0, 300)}; wrote ${canonical(expected).slice(0, 300)}`;
    });
  }
}

/** The document with the patch's paths set (an undefined value removes the field). */
function applyPatch(doc: Doc, patch: Record<string, Value | undefined>): Doc {
  const out = structuredClone(doc);
  for (const [path, value] of Object.entries(patch)) {
    const segments = path.split('.');
    let node: Doc = out;
    for (const s of segments.slice(0, -1)) {
      if (node[s] === undefined || typeof node[s] !== 'object' || Array.isArray(node[s])) node[s] = {};
      node = node[s] as Doc;
    }
    const last = segments.at(-1)!;
    if (value === undefined) delete node[last];
    else node[last] = value;
  }
  return out;
}

function remember(map: Map<string, Set<number>>, collection: string, index: number): void {
  let set = map.get(collection);
  if (set === undefined) map.set(collection, (set = new Set()));
  set.add(index);
}

/** One worker's writes: its share of the seeded documents as it left them. */
class WorkerState {
  private readonly inserts = new Map<string, number>();
  private readonly changed = new Map<string, Map<number, Doc | null>>();
  private version = 0;

  constructor(
    readonly worker: number,
    private readonly workers: number,
  ) {}

  nextInsert(collection: string): number {
    const k = this.inserts.get(collection) ?? 0;
    this.inserts.set(collection, k + 1);
    return k;
  }

  /** Update versions, distinct across workers. */
  nextVersion(): number {
    return ++this.version * this.workers + this.worker + 1;
  }

  /** A seeded document of this worker's share that it has not deleted. */
  pick(collection: Collection, random: Random): number | undefined {
    const share = Math.floor((collection.count - 1 - this.worker) / this.workers) + 1;
    if (share <= 0) return undefined;
    const changed = this.changed.get(collection.name);
    for (let i = 0; i < SHARE_TRIES; i++) {
      const index = this.worker + random.nextInt(share) * this.workers;
      if (changed?.get(index) !== null) return index;
    }
    return undefined;
  }

  current(collection: Collection, index: number): Doc {
    return this.changed.get(collection.name)?.get(index) ?? collection.generator.generate(index);
  }

  updated(collection: string, index: number, doc: Doc): void {
    this.mapOf(collection).set(index, doc);
  }

  deleted(collection: string, index: number): void {
    this.mapOf(collection).set(index, null);
  }

  private mapOf(collection: string): Map<number, Doc | null> {
    let map = this.changed.get(collection);
    if (map === undefined) this.changed.set(collection, (map = new Map()));
    return map;
  }
}

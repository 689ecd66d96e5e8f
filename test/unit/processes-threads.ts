/**
 * Thread bodies for the processes tests (loaded in the pool's worker threads, so not a test file
 * itself). They run the real YCSB thread body (`ycsbThread`: CoreWorkload over the shared
 * counters) or the real worker loop, on a store that notes what each worker thread did and when,
 * and hand the notes to the main thread, where the test checks them across threads.
 */
import { runWorkerLoop } from '../../src/runner/schedule.ts';
import { ycsbThread, type YcsbThreadSpec } from '../../src/runner/phases.ts';
import type { ThreadContext } from '../../src/runner/process-protocol.ts';
import type { FieldMap, KeyedRecord, Store } from '../../src/stores/store.ts';

/** What one thread did: each write with the time it was done, each read with the time it was sent (performance.now()). */
export interface ThreadLog {
  thread: number;
  writes: [key: string, doneMs: number][];
  reads: [key: string, sentMs: number][];
}

/** `base` with every key written or read noted in `log`. */
export function notingStore(base: Store, log: ThreadLog): Store {
  const read = (key: string) => log.reads.push([key, performance.now()]);
  const overrides = {
    read: (table: string, key: string, fields: readonly string[] | null) => (read(key), base.read(table, key, fields)),
    update: (table: string, key: string, values: FieldMap) => (read(key), base.update(table, key, values)),
    scan: (table: string, start: string, count: number, fields: readonly string[] | null) => (
      read(start),
      base.scan(table, start, count, fields)
    ),
    insert: async (table: string, key: string, values: FieldMap) => {
      await base.insert(table, key, values);
      log.writes.push([key, performance.now()]);
    },
    insertMany: async (table: string, records: readonly KeyedRecord[]) => {
      await (base as Store & { insertMany(t: string, r: readonly KeyedRecord[]): Promise<void> }).insertMany(
        table,
        records,
      );
      const now = performance.now();
      for (const r of records) log.writes.push([r.key, now]);
    },
  };
  return Object.assign(Object.create(base) as Store, overrides);
}

/** The YCSB thread body on a noting store; the notes go to the main thread's `log` handler. */
export function notedYcsbThread(
  context: ThreadContext,
  spec: YcsbThreadSpec,
): (startMs: number) => Promise<number | undefined> {
  const log: ThreadLog = { thread: context.thread, writes: [], reads: [] };
  const run = ycsbThread({ ...context, store: notingStore(context.store, log) }, spec);
  return async (startMs) => {
    const busy = await run(startMs);
    await context.call('log', log);
    return busy;
  };
}

/** How late each operation started after its due time (ms; negative: early), per thread. */
export interface StartLog {
  thread: number;
  lateness: number[];
}

/** The worker loop under a target rate with an operation that notes when it started against when it was due. */
export function notedScheduleThread(
  context: ThreadContext,
  spec: { threadcount: number; target: number; operationcount: number },
): (startMs: number) => Promise<number | undefined> {
  const log: StartLog = { thread: context.thread, lateness: [] };
  return async (startMs) => {
    const busy = await runWorkerLoop({
      ...context,
      ...spec,
      startMs,
      worker: () => async (dueMs) => {
        log.lateness.push(performance.now() - dueMs!);
      },
    });
    await context.call('log', log);
    return busy;
  };
}

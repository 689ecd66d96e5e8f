/**
 * A worker thread of a ProcessPool: its own event loop and its own connections to the store,
 * running its share of a run's workers with the thread body the main thread names, and handing
 * back what it measured. It holds no clock of its own: the main thread says when the schedule
 * starts, the shared RunControl says when to stop and when the warm-up ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isUserError } from '../common/user-error.ts';
import { encodeHistogram } from '../measure/histogram.ts';
import { IntervalRows } from '../measure/interval-rows.ts';
import { Measurements } from '../measure/measurements.ts';
import { operationRows } from '../results/build.ts';
import { settingsOf, storeFactory, storeName } from '../stores/stores.ts';
import type { Store } from '../stores/store.ts';
import {
  toThreadError,
  type MainToWorker,
  type ThreadBody,
  type ThreadContext,
  type WorkerStartData,
  type WorkerToMain,
} from './process-protocol.ts';
import { RunControl } from './run-control.ts';

const port = parentPort!;
const start = workerData as WorkerStartData;
const send = (message: WorkerToMain) => port.postMessage(message);
const fail = (error: unknown) => send({ type: 'failed', error: toThreadError(error, isUserError) });

let store: Store | undefined;
let measurements: Measurements | undefined;
let runFrom: ((startMs: number) => Promise<number | undefined>) | undefined;
let nextCall = 0;
const calls = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

function call(method: string, payload?: unknown): Promise<unknown> {
  const id = nextCall++;
  return new Promise((resolve, reject) => {
    calls.set(id, { resolve, reject });
    send({ type: 'call', id, method, payload });
  });
}

async function prepare(message: Extract<MainToWorker, { type: 'prepare' }>): Promise<void> {
  const module = (await import(message.module)) as Record<string, unknown>;
  const body = module[message.body] as ThreadBody<unknown> | undefined;
  if (typeof body !== 'function') throw new Error(`${message.module} exports no thread body ${message.body}`);
  measurements = new Measurements(message.recordServiceTime, message.recordIntendedTime);
  const context: ThreadContext = {
    store: store!,
    measurements,
    control: new RunControl(message.control),
    firstWorker: message.firstWorker,
    workers: message.workers,
    thread: start.thread,
    call,
  };
  runFrom = await body(context, message.spec);
}

async function go(startMs: number): Promise<void> {
  const m = measurements!;
  const busyPercent = await runFrom!(startMs);
  runFrom = undefined;
  send({
    type: 'done',
    rows: operationRows(m, []),
    measuredOperations: m.measuredOperations,
    failedOperations: m.failedOperations,
    warmupOperations: m.warmupOperations,
    abandonedOperations: m.abandonedOperations,
    ...(busyPercent !== undefined ? { busyPercent } : {}),
  });
}

/** This thread's rows since the last sample (kept to be filled again). */
const rows = new IntervalRows();

/** The status-interval counts since the last sample, handed over and reset. */
function sample(id: number): void {
  const m = measurements;
  m?.takeIntervalRows(rows);
  const encodedRows = rows.encode();
  rows.clear();
  const operations = m?.intervalOperations ?? 0;
  const failures = m?.intervalFailures ?? 0;
  const outageCalls = m?.intervalOutageCalls ?? 0;
  const histogram = m !== undefined && operations > 0 ? encodeHistogram(m.interval) : undefined;
  if (m !== undefined) {
    m.interval.reset();
    m.intervalOperations = 0;
    m.intervalFailures = 0;
    m.intervalOutageCalls = 0;
  }
  send({
    type: 'sampled',
    id,
    operations,
    failures,
    outageCalls,
    ...(histogram !== undefined ? { histogram } : {}),
    rows: encodedRows,
  });
}

port.on('message', (message: MainToWorker) => {
  switch (message.type) {
    case 'prepare':
      prepare(message).then(() => send({ type: 'prepared' }), fail);
      return;
    case 'go':
      go(message.startMs).catch(fail);
      return;
    case 'sample':
      sample(message.id);
      return;
    case 'reply': {
      const pending = calls.get(message.id);
      calls.delete(message.id);
      if (message.error !== undefined)
        pending?.reject(Object.assign(new Error(message.error.message), { stack: message.error.stack }));
      else pending?.resolve(message.value);
      return;
    }
    case 'close':
      void (async () => {
        try {
          await store?.close();
        } finally {
          send({ type: 'closed' });
          port.close();
        }
      })();
  }
});

try {
  const name = storeName(start.store);
  store = (await storeFactory(name))({
    url: start.url,
    settings: settingsOf(name, start.settings),
    concurrency: start.concurrency,
  });
  await store.connect();
  send({ type: 'ready' });
} catch (error) {
  fail(error);
}

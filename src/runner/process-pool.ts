/**
 * Many processes, one result: a client's `threadcount` workers spread over N worker threads, so
 * the client uses N cores. One Node event loop is one core, and the official drivers cost
 * tens to hundreds of µs of client CPU per operation (docs/methodology.md): on one loop the client, not the store, would set the
 * pace on any real server.
 *
 * Worker threads rather than child processes: each has its own event loop and its own driver
 * connections (every store's driver, Couchbase's native core included, runs in one), and
 * threads of one process share memory, so YCSB's shared counters (load keys, insert keys, the
 * acknowledged limit) and the run's control live in SharedArrayBuffers, updated with Atomics:
 * exactly YCSB's shared counters, not per-process approximations. `performance.now()` is one
 * clock for all of them, so one schedule spans every thread, and process.cpuUsage() counts the
 * CPU of every thread.
 *
 * The main thread runs no workers: it owns the clock of the run (coordinate() in schedule.ts:
 * start, warm-up, time limit, status line) and the merge. Each second it collects the threads'
 * status-interval histograms (one exact time series); at the end each thread hands over its rows
 * with their HDR histograms, merged exactly (results/merge.ts). A pool lives as long as its
 * connections are wanted: one for a load and the run after it, or for a whole comparison on a store.
 */
import { Worker } from 'node:worker_threads';
import { evenShares } from '../common/even-shares.ts';
import { UserError } from '../common/user-error.ts';
import { addEncodedHistogram } from '../measure/histogram.ts';
import type { Measurements } from '../measure/measurements.ts';
import { absorbRows } from '../results/merge.ts';
import type { MainToWorker, ThreadError, WorkerStartData, WorkerToMain } from './process-protocol.ts';
import type { RunControl } from './run-control.ts';
import type { WorkerEngine } from './schedule.ts';

/** A worker thread's error that is the user's to fix (its store unreachable, a bad setting): one line, as at home. */
export class WorkerUserError extends UserError {}

export interface PoolOptions {
  /** docbench's store name. */
  store: string;
  /** The URL the main thread resolved (its local server already started). */
  url: string;
  /** The store's `<store>.*` settings. */
  settings: Record<string, string>;
  /** Workers of the whole client: each thread's connection pool is sized for its share. */
  threadcount: number;
  processes: number;
}

/** One run's work for the pool: which thread body runs it, with what. */
export interface PoolTask<S> {
  /** URL of the module exporting the body (`import.meta.url` of its module). */
  module: string;
  /** Name of the exported ThreadBody. */
  body: string;
  spec: S;
  threadcount: number;
  /** The run's measurements, into which every thread's are merged. */
  measurements: Measurements;
  /** Main-thread services a body may call (e.g. the e-commerce sign-up ledger). */
  handlers?: Record<string, (payload: unknown) => unknown>;
}

/** `threadcount` workers over `processes` threads, as evenly as they go (contiguous global indexes). */
export function splitWorkers(threadcount: number, processes: number): { firstWorker: number; workers: number }[] {
  return evenShares(threadcount, processes).map((share) => ({ firstWorker: share.first, workers: share.count }));
}

/**
 * How a worker thread starts: the worker module beside this one, compiled (dist/, what the CLI
 * runs) or TypeScript (the tests import the sources through tsx, a development dependency, whose
 * loader a new thread must register before it can import a .ts file).
 */
function bootstrapSource(): string {
  const fromSources = import.meta.url.endsWith('.ts');
  const worker = new URL(fromSources ? './process-worker.ts' : './process-worker.js', import.meta.url).href;
  if (!fromSources) return `import(${JSON.stringify(worker)});`;
  const loader = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(worker)}); });`;
}

function rethrow(error: ThreadError, thread: number): Error {
  if (error.userError) return new WorkerUserError(error.message);
  const wrapped = new Error(`worker process ${thread}: ${error.message}`);
  if (error.stack !== undefined) wrapped.stack = `${wrapped.message}\n${error.stack}`;
  return wrapped;
}

/** One worker thread and the replies it owes. */
class PoolThread {
  private readonly waiting = new Map<string, { resolve: (m: WorkerToMain) => void; reject: (e: Error) => void }[]>();
  private exited: Error | undefined;
  /** Handlers of the current task. */
  handlers: PoolTask<unknown>['handlers'];

  constructor(
    readonly worker: Worker,
    readonly index: number,
  ) {
    worker.on('message', (message: WorkerToMain) => this.receive(message));
    worker.on('error', (error) => this.abort(error instanceof Error ? error : new Error(String(error))));
    worker.on('exit', (code) => this.abort(new Error(`worker process ${index} exited (code ${code})`)));
  }

  post(message: MainToWorker): void {
    this.worker.postMessage(message);
  }

  /** The next message of `type` (or the thread's failure). */
  next(type: WorkerToMain['type']): Promise<WorkerToMain> {
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(type) ?? [];
      list.push({ resolve, reject });
      this.waiting.set(type, list);
    });
  }

  private receive(message: WorkerToMain): void {
    if (message.type === 'call') {
      void this.answer(message);
      return;
    }
    if (message.type === 'failed') {
      // A failure answers whatever the main thread waits for from this thread.
      const error = rethrow(message.error, this.index);
      for (const list of this.waiting.values()) for (const w of list.splice(0)) w.reject(error);
      return;
    }
    this.waiting.get(message.type)?.shift()?.resolve(message);
  }

  private async answer(message: Extract<WorkerToMain, { type: 'call' }>): Promise<void> {
    try {
      const handler = this.handlers?.[message.method];
      if (handler === undefined) throw new Error(`no main-thread handler "${message.method}"`);
      this.post({ type: 'reply', id: message.id, value: await handler(message.payload) });
    } catch (error) {
      this.post({
        type: 'reply',
        id: message.id,
        error: { message: error instanceof Error ? error.message : String(error), userError: false },
      });
    }
  }

  private abort(error: Error): void {
    this.exited ??= error;
    for (const list of this.waiting.values()) for (const w of list.splice(0)) w.reject(error);
  }
}

export class ProcessPool {
  private constructor(private readonly threads: PoolThread[]) {}

  /** Processes in use: as many as asked, but never more than there are workers. */
  get processes(): number {
    return this.threads.length;
  }

  /** Start the worker threads, each connected to the store; fails (closing the rest) if any cannot connect. */
  static async start(options: PoolOptions): Promise<ProcessPool> {
    const count = Math.max(1, Math.min(options.processes, options.threadcount));
    const source = bootstrapSource();
    const shares = splitWorkers(options.threadcount, count);
    const threads = shares.map((share, thread) => {
      const data: WorkerStartData = {
        store: options.store,
        url: options.url,
        settings: options.settings,
        concurrency: share.workers,
        thread,
      };
      // No inherited execArgv: the bootstrap registers the loader itself (a second --import would too).
      return new PoolThread(new Worker(source, { eval: true, workerData: data, execArgv: [] }), thread);
    });
    const pool = new ProcessPool(threads);
    const started = await Promise.allSettled(threads.map((t) => t.next('ready')));
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) {
      await pool.close();
      throw (failed as PromiseRejectedResult).reason;
    }
    return pool;
  }

  /** The engine coordinate() drives: this task's workers, spread over the pool's threads. */
  engine<S>(task: PoolTask<S>): WorkerEngine {
    const shares = splitWorkers(task.threadcount, this.threads.length);
    const active = this.threads.filter((_, t) => shares[t]!.workers > 0);
    let sampleId = 0;
    return {
      prepare: async (control: RunControl) => {
        for (const thread of active) {
          thread.handlers = task.handlers as PoolTask<unknown>['handlers'];
          const share = shares[thread.index]!;
          thread.post({
            type: 'prepare',
            module: task.module,
            body: task.body,
            spec: task.spec,
            control: control.buffer,
            ...share,
            recordServiceTime: task.measurements.recordServiceTime,
            recordIntendedTime: task.measurements.recordIntendedTime,
          });
        }
        await this.all(
          active.map((t) => t.next('prepared')),
          control,
        );
      },
      run: async (control: RunControl, startMs: number) => {
        const done = active.map((t) => t.next('done'));
        for (const thread of active) thread.post({ type: 'go', startMs });
        const results = await this.all(done, control);
        const busy: (number | undefined)[] = [];
        for (const message of results) {
          if (message.type !== 'done') continue;
          absorbRows(task.measurements, message.rows);
          task.measurements.measuredOperations += message.measuredOperations;
          task.measurements.failedOperations += message.failedOperations;
          task.measurements.warmupOperations += message.warmupOperations;
          task.measurements.abandonedOperations += message.abandonedOperations;
          busy.push(message.busyPercent);
        }
        return busy;
      },
      collectInterval: async () => {
        const id = sampleId++;
        const replies = await Promise.all(
          active.map((thread) => {
            const reply = thread.next('sampled');
            thread.post({ type: 'sample', id });
            return reply.catch(() => undefined);
          }),
        );
        const m = task.measurements;
        for (const reply of replies) {
          if (reply?.type !== 'sampled') continue;
          m.intervalOperations += reply.operations;
          m.intervalFailures += reply.failures;
          m.intervalOutageCalls += reply.outageCalls;
          if (reply.histogram !== undefined) addEncodedHistogram(m.interval, reply.histogram);
          m.absorbIntervalRows(reply.rows);
        }
      },
    };
  }

  /** Wait for every thread; the first failure stops the run for all, and is thrown once all have answered. */
  private async all<T>(replies: Promise<T>[], control: RunControl): Promise<T[]> {
    const settled = await Promise.allSettled(
      replies.map((reply) =>
        reply.catch((error: unknown) => {
          control.stop();
          throw error;
        }),
      ),
    );
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    return settled.map((s) => (s as PromiseFulfilledResult<T>).value);
  }

  /** Close every thread's connections and end the threads. */
  async close(): Promise<void> {
    await Promise.all(
      this.threads.map(async (thread) => {
        const closed = thread.next('closed').catch(() => undefined);
        thread.post({ type: 'close' });
        const limit = new Promise((resolve) => setTimeout(resolve, 10_000).unref());
        await Promise.race([closed, limit]);
        await thread.worker.terminate();
      }),
    );
  }
}

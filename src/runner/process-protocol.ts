/**
 * The messages between a ProcessPool (main thread) and its worker threads. Plain data only
 * (structured clone); shared memory travels as SharedArrayBuffers.
 *
 *   main -> worker: prepare (a task: which thread body, its spec, this thread's workers),
 *                   go (the schedule's start), sample (status-interval counts), reply (to a call),
 *                   close
 *   worker -> main: ready (connected), prepared, sampled, call (to a main-thread handler),
 *                   done (the thread's rows, to merge), failed, closed
 */
import type { EncodedRows } from '../measure/interval-rows.ts';
import type { OperationResult } from '../results/schema.ts';
import type { Measurements } from '../measure/measurements.ts';
import type { Store } from '../stores/store.ts';
import type { RunControl } from './run-control.ts';

/** What the main thread hands a worker thread when it starts it. */
export interface WorkerStartData {
  /** docbench's store name. */
  store: string;
  url: string;
  /** The store's `<store>.*` settings. */
  settings: Record<string, string>;
  /** Operations this thread keeps in flight (sizes its connection pool). */
  concurrency: number;
  /** This thread's number (0 … processes-1): its random stream. */
  thread: number;
}

/** An error crossing threads: enough to rethrow it as what it was (a user error prints one line). */
export interface ThreadError {
  message: string;
  stack?: string;
  userError: boolean;
}

export type MainToWorker =
  | {
      type: 'prepare';
      module: string;
      body: string;
      spec: unknown;
      control: SharedArrayBuffer;
      firstWorker: number;
      workers: number;
      recordServiceTime: boolean;
      recordIntendedTime: boolean;
    }
  | { type: 'go'; startMs: number }
  | { type: 'sample'; id: number }
  | { type: 'reply'; id: number; value?: unknown; error?: ThreadError }
  | { type: 'close' };

export type WorkerToMain =
  | { type: 'ready' }
  | { type: 'prepared' }
  | {
      type: 'sampled';
      id: number;
      operations: number;
      failures: number;
      outageCalls: number;
      histogram?: string;
      rows: EncodedRows;
    }
  | { type: 'call'; id: number; method: string; payload: unknown }
  | {
      type: 'done';
      rows: OperationResult[];
      measuredOperations: number;
      failedOperations: number;
      warmupOperations: number;
      abandonedOperations: number;
      busyPercent?: number;
    }
  | { type: 'failed'; error: ThreadError }
  | { type: 'closed' };

/** What a thread body gets: everything to run its share of the run's workers on this thread. */
export interface ThreadContext {
  /** This thread's own connections. */
  store: Store;
  measurements: Measurements;
  /** The run's control, shared with the main thread and every other worker thread. */
  control: RunControl;
  /** This thread's workers: global indexes firstWorker … firstWorker+workers-1. */
  firstWorker: number;
  workers: number;
  /** This thread's number: its random stream. */
  thread: number;
  /** Ask the main thread (a handler of the task) for something only it holds. */
  call(method: string, payload?: unknown): Promise<unknown>;
}

/**
 * A thread body, exported by name from a module: prepares this thread's part of a run (its
 * workload, its generators) and returns the function that runs it from the schedule's start,
 * resolving with how busy the thread's event loop was (%).
 */
export type ThreadBody<S> = (
  context: ThreadContext,
  spec: S,
) => Promise<(startMs: number) => Promise<number | undefined>> | ((startMs: number) => Promise<number | undefined>);

export function toThreadError(error: unknown, isUserError: (e: unknown) => boolean): ThreadError {
  if (error instanceof Error)
    return {
      message: error.message,
      ...(error.stack !== undefined ? { stack: error.stack } : {}),
      userError: isUserError(error),
    };
  return { message: String(error), userError: false };
}

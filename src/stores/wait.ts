/**
 * Waiting on a server's background work (an index coming online, a collection becoming usable,
 * a size settling), with one time limit and one message shape for every store and scenario.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** How long any such wait may take before the scenario gives up. */
export const WAIT_MS = 300_000;

export interface PollOptions {
  /** The store, for the message: `couchbase: gave up waiting for …`. */
  store: string;
  intervalMs?: number;
  timeoutMs?: number;
}

/** Poll `done` until it returns true. */
export async function waitFor(what: string, done: () => Promise<boolean>, options: PollOptions): Promise<void> {
  const timeoutMs = options.timeoutMs ?? WAIT_MS;
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline)
      throw new Error(`${options.store}: gave up waiting for ${what} after ${timeoutMs / 1000} s`);
    await sleep(options.intervalMs ?? 500);
  }
}

/** Call until it succeeds, while its error is `retryable` (e.g. what a just-created collection answers). */
export async function retryWhile(
  what: string,
  call: () => Promise<unknown>,
  retryable: (error: unknown) => boolean,
  options: PollOptions,
): Promise<void> {
  const timeoutMs = options.timeoutMs ?? WAIT_MS;
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    try {
      await call();
      return;
    } catch (error) {
      if (!retryable(error)) throw error;
      if (performance.now() > deadline)
        throw new Error(`${options.store}: gave up waiting for ${what} after ${timeoutMs / 1000} s`, { cause: error });
      await sleep(options.intervalMs ?? 500);
    }
  }
}

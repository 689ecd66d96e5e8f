/**
 * Waiting in tests for a condition, never for a guessed time: a sleep long enough on a quiet
 * machine is too short on a loaded one (and too long everywhere else).
 */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How much earlier than asked a Node timer may end, by performance.now(): Node keeps its loop
 * clock in whole milliseconds and truncates a fractional delay, so a sleep can end up to 2 ms
 * before the time asked. Load only ever makes timers later.
 */
export const TIMER_EARLY_MS = 2;

/**
 * Resolve once `condition()` holds, checking every `everyMs`. `limitMs` only turns a hang into a
 * failure naming what never happened; it is not a timing assertion, so it sits far above
 * anything load can cause.
 */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  { everyMs = 10, limitMs = 60_000 } = {},
): Promise<void> {
  const deadline = performance.now() + limitMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`still waiting for ${what} after ${limitMs} ms`);
    await sleep(everyMs);
  }
}

/** Resolve once at least `ms` have passed since `since` (performance.now()) as measured, not as a timer promises. */
export async function elapse(ms: number, since = performance.now()): Promise<void> {
  for (let left = ms - (performance.now() - since); left > 0; left = ms - (performance.now() - since))
    await sleep(left);
}

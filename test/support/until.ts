import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Wait for a condition instead of sleeping a fixed time: a test that sleeps 50 ms and hopes the
 * other side has moved on fails on a loaded machine. The bound is only a guard against a hang.
 */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) assert.fail(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(50);
  }
}

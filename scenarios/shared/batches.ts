/**
 * Bulk loading in batches, the way every scenario seeds its dataset: documents
 * `0 … total-1` are cut into batches of `batchSize`, `concurrency` writers each take the next
 * batch, build it (documents are pure functions of their index, so any writer can build any
 * batch) and hand it to the store in one bulk call. Only the store call is timed (under
 * `operation`, counting the batch's documents); the whole load's wall time is the phase's.
 */
import type { ProgressBar } from './progress.ts';
import type { ScenarioTimer } from './timing.ts';

export interface BatchLoadOptions<T> {
  total: number;
  batchSize: number;
  concurrency: number;
  /** Build the documents with index in [start, end). */
  build(start: number, end: number): T[];
  /** Write one batch with the store's bulk API. */
  write(batch: T[]): Promise<void>;
  timer: ScenarioTimer;
  /** Row name of the timed writes; default `INSERT-BATCH`, as in YCSB's load phase. */
  operation?: string;
  progress?: ProgressBar;
}

export async function loadInBatches<T>(options: BatchLoadOptions<T>): Promise<void> {
  const { total, batchSize, timer, progress } = options;
  const operation = options.operation ?? 'INSERT-BATCH';
  let next = 0;
  const writer = async () => {
    while (next < total) {
      const start = next;
      const end = Math.min(total, start + batchSize);
      next = end;
      const batch = options.build(start, end);
      try {
        await timer.time(operation, () => options.write(batch), end - start);
      } catch (error) {
        next = total; // the other writers stop after their current batch
        throw error;
      }
      progress?.advance(end - start);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, writer));
}

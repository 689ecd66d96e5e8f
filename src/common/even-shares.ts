/**
 * The one way docbench splits a whole number of things over parts: contiguous shares as even as
 * they go, the remainder spread one each over the first parts, so the shares always sum to the
 * whole. Worker processes split threadcount with it (runner/process-pool.ts), and the parts of a
 * sharded run split key ranges, threads, operations and the target rate with it (src/shard/).
 * Pure: no Node APIs.
 */
export interface Share {
  /** The share's first item, counted from 0. */
  first: number;
  count: number;
}

export function evenShares(total: number, parts: number): Share[] {
  const shares: Share[] = [];
  let first = 0;
  for (let part = 0; part < parts; part++) {
    const count = Math.floor(total / parts) + (part < total % parts ? 1 : 0);
    shares.push({ first, count });
    first += count;
  }
  return shares;
}

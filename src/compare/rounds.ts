/**
 * Randomized multiple interleaved trials (Abedi & Brecht, ICPE 2017): every repetition is a
 * round that runs each alternative once, in a fresh random order. Whatever drifts while a
 * comparison runs (a neighbour, a compaction, the hypervisor's steal) then lands on every store in
 * turn rather than on whichever store ran during it, and the spread over rounds shows it. The
 * order is drawn from a seed, so a round can be told and replayed from its result.
 */
import { Random } from '../workload/random.ts';

/** The order of `items` in round `round` (1-based) of the comparison seeded with `seed`: a Fisher–Yates shuffle. */
export function roundOrder<T>(items: readonly T[], seed: number, round: number): T[] {
  const random = new Random(seed, round);
  const order = [...items];
  for (let i = order.length - 1; i > 0; i--) {
    const j = random.nextUint32() % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order;
}

/** `--repetitions`: a number of rounds, or auto (rounds until every cell is precise enough, up to a cap). */
export type Repetitions = number | 'auto';

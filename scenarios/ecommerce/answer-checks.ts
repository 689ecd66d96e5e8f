/**
 * The two ways an answer of ids is checked, whatever the query:
 *
 *   ordered    the answer is ordered by id: it must be exactly the oracle's list of seeded ids,
 *              then possibly sign-ups (their ids sort after every seeded one) that were sent
 *              before the answer came back, in ascending order; a store that reads its own
 *              writes must show each matching sign-up acknowledged before the query that fits.
 *   unordered  the answer has no defined order (the studies' queries without ORDER BY): every
 *              id must match the query, none may come twice, and there must be as many as
 *              min(limit, matches - offset), where the matches are the seeded ones plus the
 *              sign-ups that may be visible. Which ids make the page is the store's business.
 *
 * Both return what is wrong, in one line, or undefined.
 */
import { customerIndexOf } from './model.ts';
import type { SignupCount, SignupView } from './signups.ts';

const SHOWN_IDS = 8;

export function describeIds(ids: readonly string[]): string {
  if (ids.length === 0) return '0 ids';
  const shown = ids.slice(0, SHOWN_IDS).join(', ');
  return `${ids.length} ids [${shown}${ids.length > SHOWN_IDS ? `, … ${ids[ids.length - 1]}` : ''}]`;
}

export interface OrderedCheck {
  /** The seeded ids the answer must start with (the seeded matches from `offset`, at most `limit`). */
  head: readonly string[];
  /** How many seeded customers match in all. */
  seededMatches: number;
  offset: number;
  limit: number;
  got: readonly string[];
  /** Whether a customer past the seeded ones matches the query. */
  signupMatches(index: number): boolean;
  /** The number of seeded customers: ids at or above it are sign-ups. */
  customers: number;
  signups: SignupView;
  /** How the subject is named in messages, e.g. `a customer of France`. */
  what: string;
}

export function checkOrdered(c: OrderedCheck): string | undefined {
  const { head, got, signups } = c;
  const expectedText = () =>
    `expected ${describeIds(head)}${signups.acknowledged.length > 0 ? ` then sign-ups among ${describeIds(signups.acknowledged)}` : ''}`;
  for (let i = 0; i < head.length; i++) {
    if (got[i] !== head[i])
      return `${expectedText()}, got ${describeIds(got)}: position ${i} is ${got[i] ?? 'missing'}, expected ${head[i]}`;
  }
  const tail = got.slice(head.length);
  const room = c.limit - head.length;
  if (tail.length > room) return `${expectedText()}, got ${describeIds(got)}: ${got.length} ids for LIMIT ${c.limit}`;
  for (let i = 0; i < tail.length; i++) {
    const id = tail[i]!;
    const index = customerIndexOf(id);
    if (!(index >= c.customers && signups.possible(id) && c.signupMatches(index)))
      return `${expectedText()}, got ${describeIds(got)}: ${id} is not ${c.what} on this page`;
    if (i > 0 && id <= tail[i - 1]!) return `${expectedText()}, got ${describeIds(got)}: ${id} out of order`;
  }
  if (signups.readsOwnWrites && room > 0) {
    // Sign-ups sort after every seeded customer: the answer skips `skip` of them, then shows up to `room`.
    const skip = Math.max(0, c.offset - c.seededMatches);
    const acknowledged = signups.acknowledged;
    if (skip === 0) {
      const shown = new Set(tail);
      // A full answer hides the sign-ups after its last id; a short one must show them all.
      const bound = tail.length < room ? undefined : tail[tail.length - 1];
      const hidden = acknowledged.find((id) => !shown.has(id) && (bound === undefined || id < bound));
      if (hidden !== undefined)
        return `${expectedText()}, got ${describeIds(got)}: acknowledged sign-up ${hidden} is missing`;
    } else if (tail.length < Math.min(room, acknowledged.length - skip)) {
      return `${expectedText()}, got ${describeIds(got)}: ${acknowledged.length} sign-ups were acknowledged, the page shows ${tail.length} after skipping ${skip}`;
    }
  }
  return undefined;
}

export interface UnorderedCheck {
  /** How many seeded customers match. */
  seededMatches: number;
  offset: number;
  limit: number;
  got: readonly string[];
  /** Whether customer `index` (seeded or a sign-up) matches the query. */
  matches(index: number): boolean;
  customers: number;
  signups: SignupCount;
  /** How the subject is named in messages, e.g. `a customer of France`. */
  what: string;
}

export function checkUnordered(c: UnorderedCheck): string | undefined {
  const { got, signups } = c;
  const visible = (extra: number) => Math.min(c.limit, Math.max(0, c.seededMatches + extra - c.offset));
  const fewest = visible(signups.readsOwnWrites ? signups.acknowledged : 0);
  const seen = new Set<string>();
  for (const id of got) {
    if (seen.has(id)) return `got ${describeIds(got)}: ${id} more than once`;
    seen.add(id);
    const index = customerIndexOf(id);
    const known = index >= 0 && (index < c.customers || signups.possible(id));
    if (!known || !c.matches(index)) return `got ${describeIds(got)}: ${id} is not ${c.what}`;
  }
  const most = visible(signups.sent());
  if (got.length < fewest || got.length > most) {
    const range = fewest === most ? `${fewest}` : `${fewest} to ${most}`;
    return `expected ${range} ids (LIMIT ${c.limit} of ${c.seededMatches} seeded matches after OFFSET ${c.offset}${most > fewest ? ', sign-ups included' : ''}), got ${describeIds(got)}`;
  }
  return undefined;
}

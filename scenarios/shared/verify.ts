/**
 * Checking a store's answer against a scenario's oracle, and saying loudly what differs.
 *
 * A benchmark number is only worth something if the store did the work it was asked for: a
 * query that silently matches nothing (a misspelt field, a scalar compared with an array) is
 * fast and wrong. Every answer is therefore compared with the oracle's count and checksum; on a
 * mismatch the error names the store, the query, the variant, what was expected and what came
 * back, with a few of the missing and unexpected ids so the cause can be found.
 */
import { sameAnswer, summarizeIds, type AnswerSummary } from './checksum.ts';

/** Which answer this is: the store, the query and the way the store ran it. */
export interface AnswerSubject {
  store: string;
  query: string;
  variant: string;
}

export interface AnswerDifference {
  /** Ids the oracle expects that the store did not return (first few). */
  missing: string[];
  missingCount: number;
  /** Ids the store returned that the oracle does not expect (first few). */
  unexpected: string[];
  unexpectedCount: number;
  /** Ids the store returned more than once (first few). */
  duplicated: string[];
}

const SAMPLE = 5;

/** Set difference of the two answers, for the error message (only computed on a mismatch). */
export function diffIds(expected: Iterable<string>, got: readonly string[]): AnswerDifference {
  const want = new Set(expected);
  const seen = new Set<string>();
  const duplicated: string[] = [];
  const unexpected: string[] = [];
  let unexpectedCount = 0;
  for (const id of got) {
    if (seen.has(id)) {
      if (duplicated.length < SAMPLE) duplicated.push(id);
      continue;
    }
    seen.add(id);
    if (!want.has(id)) {
      unexpectedCount++;
      if (unexpected.length < SAMPLE) unexpected.push(id);
    }
  }
  const missing: string[] = [];
  let missingCount = 0;
  for (const id of want) {
    if (seen.has(id)) continue;
    missingCount++;
    if (missing.length < SAMPLE) missing.push(id);
  }
  return { missing, missingCount, unexpected, unexpectedCount, duplicated };
}

/** A store's answer differed from the oracle's. Its message is the whole verdict. */
export class AnswerMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AnswerMismatchError';
    // The stack would point into docbench, not at the cause (the store's query): show the verdict only.
    this.stack = `${this.name}: ${message}`;
  }
}

export function describeMismatch(
  subject: AnswerSubject,
  expected: AnswerSummary,
  got: AnswerSummary,
  difference?: AnswerDifference,
): string {
  const head =
    `${subject.store} [${subject.variant}] ${subject.query} returned ${got.count} ids (checksum ${got.checksum}); ` +
    `the oracle expects ${expected.count} (checksum ${expected.checksum})`;
  if (!difference) return head;
  const parts: string[] = [];
  if (difference.missingCount > 0)
    parts.push(`${difference.missingCount} missing, e.g. ${difference.missing.join(', ')}`);
  if (difference.unexpectedCount > 0)
    parts.push(`${difference.unexpectedCount} unexpected, e.g. ${difference.unexpected.join(', ')}`);
  if (difference.duplicated.length > 0) parts.push(`returned more than once: ${difference.duplicated.join(', ')}`);
  return parts.length > 0 ? `${head}: ${parts.join('; ')}` : head;
}

export interface CheckOutcome {
  ok: boolean;
  got: AnswerSummary;
  /** Set when !ok: the whole explanation. */
  problem?: string;
}

/**
 * Compare an answer with the oracle's summary. `expectedIds` is only called on a mismatch, so
 * the oracle's full id list is computed only when it is needed to explain one.
 */
export function checkAnswer(
  subject: AnswerSubject,
  expected: AnswerSummary,
  ids: readonly string[],
  expectedIds: () => Iterable<string>,
): CheckOutcome {
  const got = summarizeIds(ids);
  if (sameAnswer(expected, got)) return { ok: true, got };
  return { ok: false, got, problem: describeMismatch(subject, expected, got, diffIds(expectedIds(), ids)) };
}

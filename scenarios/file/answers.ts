/**
 * Answers in one shape for every store, and their check against the oracle's.
 *
 *   find   documents (or their projected fields), each with `_id`; a joined document under its
 *          `as` name; in the query's order when it has one (model.ts `order`), else as a set
 *   group  one row per value: { _id: value, count, sum? }, as a set
 *   count  { count }
 *
 * A document is compared whole, in a canonical form (keys sorted, numbers as JSON writes them),
 * so a store that returns the right ids with a wrong or missing field is caught. Sums are
 * compared at the summed field's precision: stores add decimals in different orders.
 */
import { sameAnswer, summarizeIds, type AnswerSummary } from '../shared/checksum.ts';
import { diffIds } from '../shared/verify.ts';
import type { Doc, Value } from './generator.ts';
import type { Query } from './model.ts';

export type Answer = { kind: 'rows'; rows: Doc[] } | { kind: 'count'; count: number };

/** What the oracle says a query must answer, small enough to keep for every parameter set. */
export interface Expected extends AnswerSummary {
  /** The ids in order, when the order is part of the answer. */
  ids?: string[];
}

/** JSON with every object's keys sorted: two equal documents give the same text. */
export function canonical(value: Value | undefined): string {
  if (value === undefined) return 'null';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value);
}

/** A group row with its sum at the summed field's precision. */
export function roundGroup(row: Doc, decimals: number): Doc {
  if (typeof row.sum !== 'number') return row;
  return { ...row, sum: Number(row.sum.toFixed(decimals)) };
}

/** The summary of an answer, as the oracle's is kept. */
export function expectationOf(query: Query, answer: Answer): Expected {
  if (answer.kind === 'count') return { count: answer.count, checksum: 'count' };
  const summary = summarizeIds(answer.rows.map((r) => canonical(r)));
  return query.kind === 'find' && query.order.length > 0
    ? { ...summary, ids: answer.rows.map((r) => String(r._id)) }
    : summary;
}

/** What checking an answer needs to know of its query (k6 scripts have no more than this). */
export interface AnswerShape {
  kind: Query['kind'];
  /** Digits a group's sums are compared at. */
  decimals: number;
}

/** Why a store's answer is wrong, or undefined when it is right. */
export function checkAnswer(query: Query, expected: Expected, got: Answer): string | undefined {
  return checkShaped({ kind: query.kind, decimals: sumDecimals(query) }, expected, got);
}

/** The same, from the query's shape alone. */
export function checkShaped(query: AnswerShape, expected: Expected, got: Answer): string | undefined {
  if (got.kind === 'count' || expected.checksum === 'count') {
    const count = got.kind === 'count' ? got.count : undefined;
    return count === expected.count
      ? undefined
      : `counted ${count ?? `${got.kind === 'rows' ? got.rows.length : '?'} rows`}, the oracle counts ${expected.count}`;
  }
  const rows = query.kind === 'group' ? got.rows.map((r) => roundGroup(r, query.decimals)) : got.rows;
  const summary = summarizeIds(rows.map((r) => canonical(r)));
  const ids = rows.map((r) => String(r._id));
  if (expected.ids !== undefined) {
    const at = expected.ids.findIndex((id, i) => ids[i] !== id);
    if (at >= 0 || ids.length !== expected.ids.length) {
      const i = at >= 0 ? at : Math.min(ids.length, expected.ids.length);
      return `returned ${ids.length} documents, the oracle expects ${expected.ids.length}; first difference at position ${i + 1}: got ${ids[i] ?? 'nothing'}, expected ${expected.ids[i] ?? 'nothing'}`;
    }
  }
  if (sameAnswer(summary, expected)) return undefined;
  if (expected.ids !== undefined)
    return `the right ${ids.length} ${query.kind === 'group' ? 'groups' : 'documents'} in the right order, but their content differs from the oracle's (checksum ${summary.checksum}, expected ${expected.checksum})`;
  return `returned ${rows.length} ${query.kind === 'group' ? 'groups' : 'documents'} (checksum ${summary.checksum}); the oracle expects ${expected.count} (checksum ${expected.checksum})`;
}

/** A wrong set of ids explained: which are missing and which unexpected (only on a mismatch). */
export function explainIds(expectedIds: readonly string[], got: Answer): string {
  if (got.kind !== 'rows') return '';
  const d = diffIds(
    expectedIds,
    got.rows.map((r) => String(r._id)),
  );
  const parts: string[] = [];
  if (d.missingCount > 0) parts.push(`${d.missingCount} missing, e.g. ${d.missing.join(', ')}`);
  if (d.unexpectedCount > 0) parts.push(`${d.unexpectedCount} unexpected, e.g. ${d.unexpected.join(', ')}`);
  return parts.join('; ');
}

/** Digits a group's sum is compared at: the summed field's scale (0 for whole numbers). */
export function sumDecimals(query: Query): number {
  if (query.kind !== 'group' || query.sum === undefined || query.sum.leaf.kind !== 'scalar') return 0;
  return query.sum.leaf.decimals ?? 0;
}

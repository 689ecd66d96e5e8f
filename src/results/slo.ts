/**
 * A latency budget (`p99<=5ms`, `READ:p99.9<=20ms,p50<=1ms`) and an error budget (`0.1%`), as
 * `docbench capacity` takes them and as each step's result records them. Pure: parsed again
 * wherever a result is judged (results/capacity.ts), so a report made later judges as the run did.
 */
import { UserError } from '../common/user-error.ts';

/** One clause: the `percentile` of an operation's `Intended-` latency must be at most `limitUs`. */
export interface LatencyClause {
  /** Only this operation kind (`READ`), or every kind the run did when absent. */
  operation?: string;
  percentile: number;
  limitUs: number;
}

export interface Slo {
  clauses: LatencyClause[];
  /** Failed operations over all issued, at most (0–1). */
  errorBudget: number;
}

/** The error budget when none is given: one failed operation in a thousand. */
export const DEFAULT_ERROR_BUDGET = 0.001;

export class SloError extends UserError {}

const UNITS: Record<string, number> = { us: 1, µs: 1, ms: 1000, s: 1_000_000 };
const CLAUSE = /^(?:([A-Za-z][\w-]*):)?p(\d+(?:\.\d+)?)\s*<=\s*(\d+(?:\.\d+)?)\s*(us|µs|ms|s)$/;

/** `p99<=5ms,READ:p99.9<=20ms` -> clauses; a mistake is one line naming the flag and what was expected. */
export function parseLatencyBudget(text: string, flag = '--slo'): LatencyClause[] {
  const parts = text.split(',').map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw new SloError(`${flag}: expected a latency budget such as "p99<=5ms", got an empty one`);
  return parts.map((part) => {
    const m = CLAUSE.exec(part);
    const percentile = m ? Number(m[2]) : NaN;
    if (!m || !(percentile > 0 && percentile < 100)) {
      throw new SloError(`${flag}: expected a latency budget such as "p99<=5ms" or "READ:p99.9<=20ms" (a percentile above 0 and below 100, <=, a time in us, ms or s), got "${part}"`);
    }
    const limitUs = Number(m[3]) * UNITS[m[4]!]!;
    if (!(limitUs >= 1)) throw new SloError(`${flag}: the limit in "${part}" is below 1 µs, the histograms' resolution`);
    return { ...(m[1] !== undefined ? { operation: m[1].toUpperCase() } : {}), percentile, limitUs: Math.round(limitUs) };
  });
}

/** `0.1%`, `0.001` -> 0.001. */
export function parseErrorBudget(text: string, flag = '--error-budget'): number {
  const m = /^(\d+(?:\.\d+)?)(%?)$/.exec(text.trim());
  const value = m ? Number(m[1]) / (m[2] === '%' ? 100 : 1) : NaN;
  if (!m || !(value >= 0 && value <= 1)) throw new SloError(`${flag}: expected the share of operations that may fail, as a percentage (0.1%) or a fraction (0.001) between 0 and 1, got "${text}"`);
  return value;
}

/** A clause as the user would write it (`p99<=5ms`). */
export function formatClause(c: LatencyClause): string {
  const limit = c.limitUs >= 1000 ? `${c.limitUs / 1000}ms` : `${c.limitUs}us`;
  return `${c.operation !== undefined ? `${c.operation}:` : ''}p${c.percentile}<=${limit}`;
}

export function formatLatencyBudget(clauses: readonly LatencyClause[]): string {
  return clauses.map(formatClause).join(',');
}

/** The strictest percentile the budget judges: what each step must run long enough for. */
export function highestPercentile(clauses: readonly LatencyClause[]): number {
  return Math.max(...clauses.map((c) => c.percentile));
}

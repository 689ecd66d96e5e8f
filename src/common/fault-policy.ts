/**
 * What a run does when operations fail: `--on-error continue` (the default) counts every failure
 * and keeps its schedule, so an outage shows in the result with its window; `--on-error abort`
 * stops at the first failed operation; `-p maxerrorrate=<fraction>` stops the run once the
 * failed share of its operations passes the fraction. A stopped run still prints its YCSB text
 * and writes its result, marked partial with the reason.
 */
import { UserError } from './user-error.ts';

export const ON_ERROR = ['continue', 'abort'] as const;
export type OnError = (typeof ON_ERROR)[number];

export interface FaultPolicy {
  onError: OnError;
  /** Fraction of failed operations (0–1) past which the run stops; undefined: no budget. */
  maxErrorRate?: number;
}

export const DEFAULT_FAULT_POLICY: FaultPolicy = { onError: 'continue' };

/** Operations a run does before its error rate is judged, so one early failure is not a rate of 100%. */
export const ERROR_BUDGET_MIN_OPERATIONS = 100;

export class FaultPolicyError extends UserError {}

const MAX_ERROR_RATE = 'maxerrorrate';

/**
 * Take `-p maxerrorrate=…` out of the overrides (it is the run's, not the workload's) and build the
 * policy; the other overrides are returned for the workload. A bad value is a one-line user error.
 */
export function faultPolicyOf(
  overrides: readonly string[],
  onError: OnError = 'continue',
): { policy: FaultPolicy; rest: string[] } {
  const rest: string[] = [];
  let maxErrorRate: number | undefined;
  for (const assignment of overrides) {
    const eq = assignment.indexOf('=');
    if (eq <= 0 || assignment.slice(0, eq).trim() !== MAX_ERROR_RATE) {
      rest.push(assignment);
      continue;
    }
    const text = assignment.slice(eq + 1).trim();
    const value = Number(text);
    if (text === '' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw new FaultPolicyError(
        `-p ${MAX_ERROR_RATE}=${text}: expected the fraction of failed operations (0 to 1, e.g. 0.05) past which the run stops`,
      );
    }
    maxErrorRate = value;
  }
  return { policy: { onError, ...(maxErrorRate !== undefined ? { maxErrorRate } : {}) }, rest };
}

/** The policy with the workload file's `maxerrorrate` when `-p` gave none. */
export function withWorkloadBudget(policy: FaultPolicy, p: { maxerrorrate?: number | undefined }): FaultPolicy {
  return policy.maxErrorRate === undefined && p.maxerrorrate !== undefined
    ? { ...policy, maxErrorRate: p.maxerrorrate }
    : policy;
}

/** Is the failed share past the budget (judged once enough operations are done)? */
export function overBudget(policy: FaultPolicy, failed: number, total: number): boolean {
  if (policy.maxErrorRate === undefined || total < ERROR_BUDGET_MIN_OPERATIONS) return false;
  return failed / total > policy.maxErrorRate;
}

/** `--on-error` as given on the command line. */
export function parseOnError(value: string): OnError {
  if ((ON_ERROR as readonly string[]).includes(value)) return value as OnError;
  throw new FaultPolicyError(`--on-error ${value}: expected ${ON_ERROR.join(' or ')}`);
}

/**
 * Whether a result measured what it says it measured. A run can finish, print a throughput and
 * still be no measurement of the store: every read refused for want of a login, every scan
 * UNSUPPORTED, a table that was never loaded answering NOT_FOUND at memory speed. Such a result is
 * `invalid`, with each reason and what to do about it; every output shows the verdict, and no
 * table, chart or ranking presents its figures as the store's.
 *
 * Pure (no Node APIs): the k6 summary, bundled into k6 scripts, computes the same verdict.
 */
import type { Result, Verdict, VerdictReason } from './schema.ts';

/**
 * Of the reads of a YCSB run phase, the share that may find nothing before the run is invalid.
 * YCSB's key choosers only pick keys that were loaded or whose insert was acknowledged, so a run
 * on a loaded table finds every record; a few misses can come from inserts lost in an outage.
 * More than this means the table holds fewer records than `recordcount` says (not loaded, loaded
 * with a smaller count, another table): reads of absent keys cost a store far less than reads
 * of records, so the figures would flatter it.
 */
export const NOT_FOUND_LIMIT = 0.01;

/** The rows whose NOT_FOUND means a record that should be there is not. */
const RECORD_READS = ['READ', 'UPDATE', 'SCAN', 'READ-MODIFY-WRITE'];

const isCheckRow = (row: string) => row === 'VERIFY' || row.endsWith('-VERIFY');

function sum(returns: Readonly<Partial<Record<string, number>>> | undefined, ...statuses: string[]): number {
  let n = 0;
  for (const s of statuses) n += returns?.[s] ?? 0;
  return n;
}

function total(returns: Readonly<Partial<Record<string, number>>> | undefined): number {
  return Object.values(returns ?? {}).reduce<number>((n, c) => n + (c ?? 0), 0);
}

function statusList(returns: Readonly<Partial<Record<string, number>>> | undefined): string {
  return Object.entries(returns ?? {})
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([s, n]) => `${s}=${n}`)
    .join(' ');
}

function percentText(share: number): string {
  const p = share * 100;
  return `${p >= 10 ? p.toFixed(0) : p.toFixed(1)}%`;
}

/** `docbench load` for a store and workload, with the properties that decide what it loads, as a fix. */
export function loadCommandFor(store: string, local: boolean, workload: string, p: Readonly<Record<string, unknown>>): string {
  const table = p.table !== undefined && p.table !== 'usertable' ? ` -p table=${String(p.table)}` : '';
  const records = p.recordcount !== undefined ? ` -p recordcount=${String(p.recordcount)}` : '';
  return `docbench load --store ${store}${local ? '' : ' --url …'} -P ${workload}${records}${table}`;
}

function loadCommand(r: Result): string {
  return loadCommandFor(r.store.name, r.store.localTarget, r.workload.file ?? r.workload.name, r.workload.properties);
}

/** What to do about an operation kind that never succeeded, from how it failed. */
function noSuccessReason(r: Result, row: string, returns: Readonly<Partial<Record<string, number>>>, sample: string | undefined): VerdictReason {
  const issued = total(returns);
  const why = sample ? `: ${sample}` : '';
  const store = r.store.standIn ? `${r.store.name} (stand-in ${r.store.standIn.name})` : r.store.name;
  if (sum(returns, 'UNSUPPORTED') === issued) {
    return { code: 'unsupported', detail: `all ${issued} ${row} operations were UNSUPPORTED${why}`, fix: `${store} cannot run ${row}: compare it on workloads without ${row}` };
  }
  if (sum(returns, 'SERVICE_UNAVAILABLE', 'TIMEOUT') === issued) {
    return { code: 'unreachable', detail: `all ${issued} ${row} operations failed: the store was out of reach (${statusList(returns)})${why}`, fix: 'check that the server is up and the URL names it' };
  }
  return { code: 'no-success', detail: `none of the ${issued} ${row} operations succeeded (${statusList(returns)})${why}`, fix: 'read the error above: a refused login or missing rights is fixed in the URL\'s credentials' };
}

/** The verdict of a result, from its counts alone (so a merged or old result gets the same). */
export function computeVerdict(r: Result): Verdict {
  const reasons: VerdictReason[] = [];
  for (const op of r.operations) {
    if (op.returns === undefined || isCheckRow(op.name)) continue;
    const issued = total(op.returns);
    if (issued > 0 && sum(op.returns, 'OK', 'NOT_FOUND') === 0) reasons.push(noSuccessReason(r, op.name, op.returns, op.errorSamples?.[0]));
  }
  if (r.kind === 'ycsb' && r.phase === 'run') {
    const reads = r.operations.filter((o) => RECORD_READS.includes(o.name));
    const calls = reads.reduce((n, o) => n + total(o.returns), 0);
    const missing = reads.reduce((n, o) => n + sum(o.returns, 'NOT_FOUND'), 0);
    // With the failover check on, every loaded and inserted key was read back after the run, so
    // the misses are known: inserts that failed (YCSB still reads their keys) or lost. Only a
    // check that found most records missing says the table was not loaded.
    const checked = r.lostWrites;
    const notLoaded = checked ? checked.checkedRecords > 0 && checked.missingRecords / checked.checkedRecords > 0.5 : calls > 0 && missing / calls > NOT_FOUND_LIMIT;
    if (notLoaded) {
      reasons.push({
        code: 'not-loaded',
        detail: `${percentText(missing / calls)} of ${calls} reads found no record (more than ${percentText(NOT_FOUND_LIMIT)}): the table holds fewer records than recordcount says`,
        fix: `load it first: ${loadCommand(r)}`,
      });
    }
  }
  const wrong = r.operations.filter((o) => isCheckRow(o.name)).reduce((n, o) => n + sum(o.returns, 'UNEXPECTED_STATE'), 0);
  if (wrong > 0) {
    const sample = r.operations.find((o) => isCheckRow(o.name) && sum(o.returns, 'UNEXPECTED_STATE') > 0)?.errorSamples?.[0];
    reasons.push({ code: 'wrong-answers', detail: `${wrong} answers failed their check${sample ? `: ${sample}` : ''}`, fix: 'the store returned data other than what was written: the figures time wrong answers' });
  }
  if (r.partial?.reason === 'error-budget') reasons.push({ code: 'error-budget', detail: r.partial.detail, fix: 'find why operations failed (the error samples), or raise maxerrorrate' });
  if (r.partial?.reason === 'on-error') reasons.push({ code: 'aborted', detail: r.partial.detail, fix: 'find why the operation failed (the error samples), or run with --on-error continue' });
  return reasons.length === 0 ? { status: 'valid', reasons: [] } : { status: 'invalid', reasons };
}

/** A result's verdict: the one it carries, or, for a file written before verdicts, computed now. */
export function verdictOf(r: Result): Verdict {
  return r.verdict ?? computeVerdict(r);
}

export function isValid(r: Result): boolean {
  return verdictOf(r).status === 'valid';
}

/** One line: `valid`, or `INVALID: reason (fix); reason (fix)`. */
export function verdictLine(v: Verdict): string {
  if (v.status === 'valid') return 'valid';
  return `INVALID: ${v.reasons.map((reason) => `${reason.detail} (${reason.fix})`).join('; ')}`;
}

/** The shortest mark for a table cell: `INVALID: <first reason's detail>`. */
export function verdictMark(v: Verdict): string {
  return v.status === 'valid' ? 'valid' : `INVALID: ${v.reasons[0]!.detail}${v.reasons.length > 1 ? ` (+${v.reasons.length - 1} more)` : ''}`;
}

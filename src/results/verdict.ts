/**
 * Whether a result measured what it says it measured. A run can finish, print a throughput and
 * still be no measurement of the store: every read refused for want of a login, every scan
 * UNSUPPORTED, a table that was never loaded answering NOT_FOUND at memory speed. Such a result is
 * `invalid`, with each reason and what to do about it; every output shows the verdict, and no
 * table, chart or ranking presents its figures as the store's.
 *
 * A scenario's queries are figures of their own: a query the store refuses (UNSUPPORTED, with
 * the reason) is left out of that store's figures (`excluded`) and the rest stay valid, compared
 * query by query; only the mix-level figures (overall ops/s) then differ in kind, and compare only
 * between results that left out the same (`mixOf`). A YCSB workload is one mix: an operation kind
 * it never ran makes it invalid.
 *
 * Pure (no Node APIs): the k6 summary, bundled into k6 scripts, computes the same verdict.
 */
import type { ExcludedOperation, OperationResult, Result, Verdict, VerdictReason } from './schema.ts';
import { storeWithProduct } from './product.ts';

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
  if (sum(returns, 'UNSUPPORTED') === issued) {
    return { code: 'unsupported', detail: `all ${issued} ${row} operations were UNSUPPORTED${why}`, fix: `${storeName(r)} cannot run ${row}: compare it on workloads without ${row}` };
  }
  if (sum(returns, 'SERVICE_UNAVAILABLE', 'TIMEOUT') === issued) {
    return { code: 'unreachable', detail: `all ${issued} ${row} operations failed: the store was out of reach (${statusList(returns)})${why}`, fix: 'check that the server is up and the URL names it' };
  }
  return { code: 'no-success', detail: `none of the ${issued} ${row} operations succeeded (${statusList(returns)})${why}`, fix: adviceFor(r, sample) };
}

const storeName = (r: Result) => storeWithProduct(r.store);

/** An error that says the login was refused or the user lacks the rights (each store's words for it). */
const CREDENTIALS =
  /\b(NOAUTH|WRONGPASS|NOPERM|unauthori[sz]ed|not authori[sz]ed|authenticat\w*|auth(entication)? fail\w*|forbidden|permission|access denied|password|credentials?|not a server admin)\b|HTTP 40[13]\b/i;
/** An error that says what the call names is not there (a database, keyspace, table, bucket, index). */
const MISSING =
  /does not exist|doesn't exist|not found|unconfigured table|no such (table|keyspace|database|collection|bucket|index)|TableNotFound|NamespaceNotFound|ns not found|HTTP 404\b/i;
/** The words of a JavaScript runtime error (a TypeError's): a program failed on the call, not a rule of the store. */
const PROGRAM_FAULT =
  /^(TypeError|ReferenceError|RangeError|SyntaxError)\b|Cannot read propert(y|ies) of|Cannot destructure|is not a function|is not iterable|is not defined|Unexpected token/;

/**
 * What to do about calls that failed with an error, from what the first error says: a login
 * refused, something missing, a program that failed on the call (a JavaScript runtime error), or
 * the store refusing the call as it was written. (One text for all of them once sent a user to the URL's credentials for a TypeError.)
 */
function adviceFor(r: Result, sample: string | undefined): string {
  if (sample === undefined) return 'the result kept no error message: run it again and read the errors it prints';
  if (CREDENTIALS.test(sample))
    return "a refused login or missing rights: fix the user and password in the URL, or the user's rights on the server";
  if (MISSING.test(sample))
    return r.kind === 'ycsb'
      ? `what the call names is not there: ${loadCommand(r)}`
      : `what the call names is not there: seed the store first${seedCommand(r)}`;
  if (PROGRAM_FAULT.test(sample))
    return (
      'a JavaScript runtime error, not the store refusing the call: a program failed on it, the server itself where it runs on JavaScript ' +
      `(it then answers with its own error's words), else docbench's translation of the call or the driver${r.store.standIn ? `; on a stand-in, run it on a real ${r.store.name} server (--url, --docker)` : ''}; report it with the error above`
    );
  return 'the store answered every call with this error: read it above (the call as docbench wrote it for this store, or a setting the store needs)';
}

/** `docbench seed scenario …` for a scenario file's result, where the file is known. */
function seedCommand(r: Result): string {
  const file = r.workload.properties.file;
  return r.kind === 'scenario' && typeof file === 'string'
    ? ` (docbench seed scenario ${file} --store ${r.store.name})`
    : '';
}

/** Whether a result is a scenario's, whose operations (queries) are figures of their own. */
function isScenario(r: Result): boolean {
  return r.kind !== 'ycsb' && r.kind !== 'capacity';
}

/** A refused operation, in the store's words: its error sample without the `<op> is not supported:` lead. */
function refusal(row: string, sample: string | undefined): ExcludedOperation {
  const lead = `${row} is not supported: `;
  const reason = sample === undefined ? 'the store cannot run it' : sample.startsWith(lead) ? sample.slice(lead.length) : sample;
  return { operation: row, detail: `UNSUPPORTED: ${reason}` };
}

/** The verdict of a result, from its counts alone (so a merged or old result gets the same). */
export function computeVerdict(r: Result): Verdict {
  const reasons: VerdictReason[] = [];
  const refused: OperationResult[] = [];
  for (const op of r.operations) {
    if (op.returns === undefined || isCheckRow(op.name)) continue;
    const issued = total(op.returns);
    if (issued === 0 || sum(op.returns, 'OK', 'NOT_FOUND') > 0) continue;
    if (isScenario(r) && sum(op.returns, 'UNSUPPORTED') === issued) refused.push(op);
    else reasons.push(noSuccessReason(r, op.name, op.returns, op.errorSamples?.[0]));
  }
  // A store that refused everything measured nothing: each refusal is then a reason, as in a YCSB run.
  const measured = r.operations.some((o) => !isCheckRow(o.name) && sum(o.returns, 'OK', 'NOT_FOUND') > 0);
  if (!measured) for (const op of refused) reasons.push(noSuccessReason(r, op.name, op.returns!, op.errorSamples?.[0]));
  const excluded = measured ? refused.map((op) => refusal(op.name, op.errorSamples?.[0])) : [];
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
  const left = excluded.length > 0 ? { excluded } : {};
  return reasons.length === 0 ? { status: 'valid', reasons: [], ...left } : { status: 'invalid', reasons, ...left };
}

/** A result's verdict: the one it carries, or, for a file written before verdicts, computed now. */
export function verdictOf(r: Result): Verdict {
  return r.verdict ?? computeVerdict(r);
}

export function isValid(r: Result): boolean {
  return verdictOf(r).status === 'valid';
}

/** One line: `valid`, or `INVALID: reason (fix); reason (fix)`; then what was left out of the figures, if anything. */
export function verdictLine(v: Verdict): string {
  const left = excludedText(v);
  if (v.status === 'valid') return left === '' ? 'valid' : `valid for the operations it ran; ${left}`;
  return `INVALID: ${v.reasons.map((reason) => `${reason.detail} (${reason.fix})`).join('; ')}${left === '' ? '' : `; ${left}`}`;
}

/** The shortest mark for a table cell: `valid`, `valid without q1, q2`, or `INVALID: <first reason's detail>`. */
export function verdictMark(v: Verdict): string {
  if (v.status === 'valid')
    return v.excluded?.length ? `valid without ${v.excluded.map((e) => e.operation).join(', ')}` : 'valid';
  return `INVALID: ${v.reasons[0]!.detail}${v.reasons.length > 1 ? ` (+${v.reasons.length - 1} more)` : ''}`;
}

function excludedText(v: Verdict): string {
  if (!v.excluded?.length) return '';
  return (
    `left out of its figures: ${v.excluded.map((e) => `${e.operation} (${e.detail})`).join('; ')}; ` +
    'its overall ops/s is of the mix without them: compare it only with runs that left out the same, the other operations query by query'
  );
}

/**
 * Which mix a result's mix-level figures (overall ops/s) are of: '' for the whole mix, else the
 * operations left out, by name (`q1, q2`). They compare only between results with the same.
 */
export function mixOf(r: Result): string {
  return (verdictOf(r).excluded ?? [])
    .map((e) => e.operation)
    .sort()
    .join(', ');
}

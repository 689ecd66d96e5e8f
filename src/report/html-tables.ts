import { deploymentLine } from './deployment.ts';
import type { QueryPlan, Result } from '../results/schema.ts';
import { isValid, verdictLine, verdictMark, verdictOf } from '../results/verdict.ts';
import { compatibleProduct } from '../results/product.ts';
import { serverCpuUsPerOp, serviceCpuUsPerRequest } from './charts-latency-cost.ts';
import {
  cellsOf,
  distinct,
  runtimeSecondsOf,
  seriesLabel,
  spreadOf,
  workloadLabel,
  type Cell,
  type Spread,
} from './groups.ts';
import { latencyPercentile } from './percentiles.ts';
import { mainRows } from './cell-statistics.ts';
import { formatSummary } from '../stats/format.ts';
import { summarize } from '../stats/summary.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** A figure, possibly with its [min–max] or [low, high] and a note in parentheses: right-aligned like a number. */
const NUMERIC = /^[≈\d][\d,.]*×?( [\d,.]+)?( \[[\d,.–]+(, [\d,.]+)?\])?( \([^)]*\))?$/;

/** A plain table: header and rows of already-formatted text (escaped here). */
export function htmlTable(header: readonly string[], rows: readonly (readonly string[])[], numericFrom = 1): string {
  const th = header.map((h) => `<th>${escapeHtml(h)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell, i) => `<td${i >= numericFrom && NUMERIC.test(cell) ? ' class="num"' : ''}>${escapeHtml(cell)}</td>`).join('')}</tr>`,
    )
    .join('\n');
  return `<table><thead><tr>${th}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const fmt = (v: number, digits = 0) =>
  v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });

/** The median (or the mean, where a study's paper averaged) with [min–max] when repeated. */
export function spreadText(s: Spread, digits = 0, statistic: 'median' | 'mean' = 'median'): string {
  const centre = statistic === 'mean' ? s.mean : s.median;
  return s.n > 1 ? `${fmt(centre, digits)} [${fmt(s.min, digits)}–${fmt(s.max, digits)}]` : fmt(centre, digits);
}

function optionalSpread(values: (number | undefined)[], digits = 1): string {
  const measured = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  return measured.length > 0 ? spreadText(spreadOf(measured), digits) : '';
}

/** p50/p99 of every main row, from the histograms of all the cell's runs together. */
function latencyText(cell: Cell, percentile: number): string {
  return mainRows(cell.runs)
    .map((row) => {
      const value = latencyPercentile(cell.runs, row, percentile);
      return value === undefined ? '' : `${row} ${fmt(value)}`;
    })
    .filter(Boolean)
    .join(' · ');
}

function notOk(runs: readonly Result[]): string {
  const totals = new Map<string, number>();
  for (const r of runs)
    for (const [status, n] of Object.entries(r.returns))
      if (status !== 'OK') totals.set(status, (totals.get(status) ?? 0) + (n ?? 0));
  return totals.size > 0 ? [...totals].map(([s, n]) => `${s}=${n}`).join(' ') : '0';
}

/** A cell's verdict: `valid`, or how many of its runs are invalid and the first one's reason. */
function verdictText(cell: Cell): string {
  const invalid = cell.runs.filter((r) => !isValid(r));
  if (invalid.length === 0) return 'valid';
  const of = cell.runs.length > 1 ? ` in ${invalid.length} of ${cell.runs.length} runs` : '';
  return `INVALID${of}: ${verdictMark(verdictOf(invalid[0]!)).replace(/^INVALID: /, '')}`;
}

/**
 * Every cell: the table a reader copies figures from (scenario runs included). A cell's figures
 * come from its valid runs only; a cell with none shows its verdict and no figure.
 */
export function runsTable(results: readonly Result[]): string {
  const cells = cellsOf(results);
  const repeated = cells.some((c) => c.runs.filter(isValid).length > 1);
  const header = [
    'phase',
    'workload',
    'store',
    'records',
    'threads',
    'runs',
    'verdict',
    repeated ? 'ops/s median [95% CI] (n, CoV)' : 'ops/s (median [min–max])',
    'runtime s',
    'p50 µs',
    'p99 µs',
    'not OK',
    'client CPU µs/op',
    'service CPU µs/req',
    'server CPU µs/op',
    'server peak RSS MiB',
    'disk MiB',
    'steal %',
  ];
  const rows = cells.map((all) => {
    const c: Cell = { ...all, runs: all.runs.filter(isValid) };
    const measured = c.runs.length > 0;
    return [
      c.phase,
      c.workload,
      c.series,
      c.records?.toLocaleString('en-US') ?? '',
      c.threads?.toString() ?? '',
      String(all.runs.length),
      verdictText(all),
      measured ? formatSummary(summarize(c.runs.map((r) => r.overall.throughputOpsPerSec))) : '',
      measured ? spreadText(runtimeSecondsOf(c), 2) : '',
      latencyText(c, 50),
      latencyText(c, 99),
      notOk(all.runs),
      optionalSpread(c.runs.map((r) => r.clientCpu.usPerOp)),
      optionalSpread(c.runs.map(serviceCpuUsPerRequest)),
      optionalSpread(c.runs.map(serverCpuUsPerOp)),
      optionalSpread(
        c.runs.map((r) => (r.serverCost?.peakRssBytes === undefined ? undefined : r.serverCost.peakRssBytes / 2 ** 20)),
      ),
      optionalSpread(c.runs.map((r) => (r.store.diskBytes === undefined ? undefined : r.store.diskBytes / 2 ** 20))),
      optionalSpread(c.runs.map((r) => r.machineCpu?.stealPercent)),
    ];
  });
  return htmlTable(header, rows, 3);
}

/** How each store ran each scenario query, where plans were recorded. */
export function plansTable(results: readonly Result[]): string | undefined {
  const seen = new Set<string>();
  const rows: string[][] = [];
  for (const r of results) {
    for (const plan of r.plans ?? []) {
      const key = JSON.stringify([seriesLabel(r), plan.query, plan.variant, plan.parameters ?? '']);
      if (seen.has(key)) continue;
      seen.add(key);
      rows.push(planRow(r, plan));
    }
  }
  if (rows.length === 0) return undefined;
  return htmlTable(
    [
      'store',
      'query',
      'variant',
      'access',
      'used',
      'keys examined',
      'docs examined',
      'returned',
      'flag',
      'evidence',
      'plan',
    ],
    rows,
    5,
  );
}

function planRow(r: Result, plan: QueryPlan): string[] {
  const flag = plan.flagged ? 'READ EVERYTHING despite an index' : plan.warnings.join('; ');
  return [
    seriesLabel(r),
    plan.query,
    plan.variant,
    plan.access,
    plan.used.join(', '),
    plan.keysExamined?.toString() ?? '',
    plan.documentsExamined?.toString() ?? '',
    plan.returned?.toString() ?? '',
    flag,
    plan.source,
    plan.raw.slice(0, 200),
  ];
}

/** The servers, their versions, stand-ins with their notes, and each run's notes (deduplicated). */
export function storesTable(results: readonly Result[]): string {
  // One row per store and server: the last result's statistics (the store after the last run).
  const last = new Map(results.map((r) => [`${r.store.name} ${r.store.url} ${r.store.server}`, r]));
  const rows = distinct(
    [...last.values()].map((r) =>
      JSON.stringify([
        r.store.name,
        r.store.url,
        `${r.store.server} ${r.store.serverVersion}`,
        r.store.driver,
        r.store.standIn
          ? `STAND-IN ${r.store.standIn.name} ${r.store.standIn.version}: ${r.store.standIn.note}`
          : r.store.compatible
            ? `${compatibleProduct(r.store.compatible)}: ${r.store.compatible.note}`
            : 'the product',
        deploymentLine(r.store) ?? '',
        // What the store's own statistics said (its size, memory, records): the server-side view for remote stores too.
        [
          r.store.diskBytes !== undefined ? `disk ${(r.store.diskBytes / 2 ** 20).toFixed(1)} MiB` : '',
          r.store.memoryBytes !== undefined ? `memory ${(r.store.memoryBytes / 2 ** 20).toFixed(1)} MiB` : '',
          r.store.recordCount !== undefined ? `${r.store.recordCount} records` : '',
          ...Object.entries(r.store.extra ?? {})
            .slice(0, 8)
            .map(([k, v]) => `${k}=${v}`),
        ]
          .filter(Boolean)
          .join(', '),
      ]),
    ),
  );
  return htmlTable(
    [
      'store',
      'url (password masked)',
      'server',
      'driver',
      'stand-in?',
      'deployment and consistency',
      "store's own stats (at the end of a run)",
    ],
    rows.map((row) => JSON.parse(row) as string[]),
    99,
  );
}

export function notesList(results: readonly Result[]): string {
  const notes = distinct(
    results.flatMap((r) =>
      [...(r.store.notes ?? []), ...r.notes].map((n) => `${seriesLabel(r)} ${workloadLabel(r)}: ${n}`),
    ),
  );
  if (notes.length === 0) return '<p>No notes.</p>';
  const shown = notes.slice(0, 200);
  return `<ul>${shown.map((n) => `<li>${escapeHtml(n)}</li>`).join('\n')}</ul>${notes.length > shown.length ? `<p>… ${notes.length - shown.length} more in the result files.</p>` : ''}`;
}

/** Runs whose verdict is invalid, each with its reasons and fix: they are in no chart and no ranking. */
export function invalidList(results: readonly Result[]): string | undefined {
  const invalid = results.filter((r) => !isValid(r));
  if (invalid.length === 0) return undefined;
  const items = invalid.map(
    (r) =>
      `<li>${escapeHtml(`${r.phase} ${workloadLabel(r)} on ${seriesLabel(r)}: ${verdictLine(verdictOf(r))}`)}</li>`,
  );
  return `<p class="invalid">${invalid.length} run${invalid.length === 1 ? ' is' : 's are'} INVALID: ${invalid.length === 1 ? 'it measured' : 'they measured'} no store work, so ${invalid.length === 1 ? 'it is' : 'they are'} left out of every chart and figure (the result files keep ${invalid.length === 1 ? 'it' : 'them'}, marked).</p><ul>${items.join('\n')}</ul>`;
}

/**
 * The persons tables, rendered from the results alone (the common schema), so what is printed is
 * what the JSON files hold: one table per store run (insert, size, builds, Q1–Q5 with counts and
 * verification), and one comparison across stores in the thesis's terms (insert time, size,
 * query times). A figure from a local stand-in is marked wherever it appears.
 */
import { storeShort } from '../../src/results/product.ts';
import { describeMachineCpu } from '../../src/report/machine-cpu.ts';
import type { Result } from '../../src/results/schema.ts';
import { isValid, verdictLine, verdictOf } from '../../src/results/verdict.ts';
import { formatCount, formatMiB, formatMs, formatSeconds, notStandInNote } from '../shared/format.ts';
import { markdownTable } from '../../src/report/markdown.ts';
import { renderPlans } from '../shared/plans.ts';
import { meanMs } from '../shared/timing.ts';
import { formatSummary } from '../../src/stats/format.ts';
import { summarize } from '../../src/stats/summary.ts';
import { QUERIES } from './queries.ts';
import { buildRow, queryRow, queryStatus, type StoreRun } from './run.ts';

const STATUS_MARK = {
  verified: '✓',
  UNSUPPORTED: 'UNSUPPORTED',
  ERROR: 'ERROR',
  WRONG: 'WRONG ✗',
  'not run': 'not run',
} as const;

function storeName(result: Result): string {
  return storeShort(result.store);
}

/** The stand-in's name with its version, once (a local target's product name often carries it already). */
function standInName(s: { name: string; version: string }): string {
  return s.version === 'unknown' || s.name.includes(s.version) ? s.name : `${s.name} ${s.version}`;
}

function serverLine(result: Result): string {
  const s = result.store;
  const what = `${s.server} ${s.serverVersion} via ${s.driver}`;
  return s.standIn
    ? `${what}. STAND-IN: ${s.standIn.name}, not the real product: ${s.standIn.note}`
    : `${what}${notStandInNote(s)}`;
}

function variantsOf(result: Result): string[] {
  const v = result.workload.properties.variants;
  return typeof v === 'string' && v !== '' ? v.split(',') : [];
}

function expectedCount(result: Result, query: string): number | undefined {
  const n = result.workload.properties[`oracle.${query}.count`];
  return typeof n === 'number' ? n : undefined;
}

function datasetLine(result: Result): string {
  const p = result.workload.properties;
  const line = `${formatCount(Number(p.size))} ${String(p.shape)} persons, seed ${String(p.seed)}, ${p.indexes ? 'with secondary indexes' : 'no secondary indexes'}, ${insertLabel(result)}`;
  return result.phase === 'run' ? `${line}, each query run ${String(p.repeat)}× (mean shown)` : `${line}, load only`;
}

/** How the load wrote: one insert per document (the thesis's figure), or bulk writes. */
function insertLabel(result: Result): string {
  const p = result.workload.properties;
  return p.insertmode === 'single' ? 'one insert per document' : `bulk writes of ${String(p.batchsize ?? '?')}`;
}

/** The dataset's size on disk in MiB, or `n/a` when the store could not report one (the notes say why). */
function diskMiB(result: Result): string {
  return result.store.diskBytes !== undefined ? formatMiB(result.store.diskBytes) : 'n/a';
}

function usesIndexes(result: Result, variant: string): boolean {
  return result.workload.properties[`variant.${variant}.usesIndexes`] !== false;
}

function compactedBytes(result: Result): number | undefined {
  const b = result.store.extra?.['persons.disk.compactedBytes'];
  return typeof b === 'number' ? b : undefined;
}

/** One store's run as a table, with how each figure was obtained underneath. */
export function renderStoreTable(run: StoreRun): string {
  const { load } = run;
  const result = run.run ?? load;
  const rows: string[][] = [];
  rows.push([
    `insert (${insertLabel(load)})`,
    '',
    `${formatSeconds(load.overall.runtimeMs)} s`,
    formatCount(load.overall.throughputOpsPerSec),
    formatCount(load.overall.operations),
    '',
  ]);
  const disk = diskMiB(result);
  rows.push(['size on disk', '', disk === 'n/a' ? 'n/a (see notes)' : `${disk} MiB`, '', '', '']);
  const compacted = compactedBytes(result);
  const compactMs = meanMs(result, 'COMPACT');
  if (compactMs !== undefined) rows.push(['compaction', '', `${formatMs(compactMs)} ms`, '', '', '']);
  if (compacted !== undefined) rows.push(['size after compaction', '', `${formatMiB(compacted)} MiB`, '', '', '']);
  if (run.run) {
    const indexMs = meanMs(run.run, 'INDEX-BUILD');
    if (indexMs !== undefined) rows.push(['index build', '', `${formatMs(indexMs)} ms`, '', '', '']);
    for (const variant of variantsOf(run.run)) {
      const buildMs = meanMs(run.run, buildRow(variant));
      if (buildMs !== undefined) rows.push([`${variant} build`, variant, `${formatMs(buildMs)} ms`, '', '', '']);
      for (const q of QUERIES) {
        const status = queryStatus(run.run, variant, q.id);
        const ms = meanMs(run.run, queryRow(variant, q.id));
        const count = expectedCount(run.run, q.id);
        rows.push([
          q.id,
          variant,
          ms !== undefined ? `${formatMs(ms)} ms` : '',
          '',
          status === 'verified' && count !== undefined ? formatCount(count) : '',
          STATUS_MARK[status],
        ]);
      }
    }
  }
  const table = markdownTable(['step', 'variant', 'time', 'docs/s', 'count', 'verified'], rows, [
    'left',
    'left',
    'right',
    'right',
    'right',
    'center',
  ]);
  const notes = result.notes.map((n) => `- ${n}`).join('\n');
  const round = result.repetition ? ` (round ${result.repetition.round} of ${result.repetition.rounds})` : '';
  return `### ${storeName(result)}${round}: ${datasetLine(result)}\n\n${serverLine(result)}\n\n${table}\n${notes}\n`;
}

/** Runs of one store, size, shape and indexes: one round's, or several rounds' (`--repetitions`). */
function groupsOf(runs: readonly StoreRun[]): StoreRun[][] {
  const groups = new Map<string, StoreRun[]>();
  for (const r of runs) {
    const key = JSON.stringify([r.store, r.settings.size, r.settings.shape, r.settings.indexes]);
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()];
}

/**
 * One figure of a group: a single run's exactly as the table always wrote it, or over several
 * rounds the median with its 95% interval in the unit `display` converts to, from the one
 * formatter (src/stats/format.ts). `missing` where no round measured it.
 */
function figure(
  values: readonly (number | undefined)[],
  single: (value: number) => string,
  display: { of: (value: number) => number; digits: (median: number) => number },
  missing = '',
): string {
  const measured = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (measured.length === 0) return missing;
  if (values.length === 1) return single(measured[0]!);
  const summary = summarize(measured.map(display.of));
  return formatSummary(summary, { digits: display.digits(summary.median), brief: true });
}

/** The units the table writes: seconds from ms (formatSeconds), MiB from bytes (formatMiB), ms (formatMs), counts. */
const SECONDS = { of: (ms: number) => ms / 1000, digits: (s: number) => (s < 10 ? 2 : 1) };
const MIB = { of: (bytes: number) => bytes / 1048576, digits: () => 2 };
const MS = { of: (ms: number) => ms, digits: (ms: number) => (ms < 10 ? 2 : ms < 100 ? 1 : 0) };
const COUNT = { of: (n: number) => n, digits: () => 0 };

/** Every store run side by side, in the thesis's terms; runs of several rounds as their medians with 95% intervals. */
export function renderComparison(runs: readonly StoreRun[]): string {
  const withQueries = runs.filter((r) => r.run !== undefined);
  const groups = groupsOf(withQueries);
  const repeated = groups.some((g) => g.length > 1);
  const rows: string[][] = [];
  for (const group of groups) {
    const r = group[0]!;
    const run = r.run!;
    const results = group.map((g) => g.run!);
    const indexMs = (x: Result) => meanMs(x, 'INDEX-BUILD');
    for (const [i, variant] of variantsOf(run).entries()) {
      // The secondary indexes count for the variants that use them (not for CouchDB's views).
      const builds = results.map((x) => {
        const parts = [usesIndexes(x, variant) ? indexMs(x) : undefined, meanMs(x, buildRow(variant))].filter(
          (v): v is number => v !== undefined,
        );
        return parts.length > 0 ? parts.reduce((a, b) => a + b, 0) : undefined;
      });
      const cells = [
        formatCount(r.settings.size),
        r.settings.shape,
        r.settings.indexes ? 'yes' : 'no',
        i === 0 ? storeName(run) : '',
        variant,
        ...(repeated ? [i === 0 ? String(group.length) : ''] : []),
        i === 0
          ? figure(
              group.map((g) => g.load.overall.runtimeMs),
              formatSeconds,
              SECONDS,
            )
          : '',
        i === 0
          ? figure(
              group.map((g) => g.load.overall.throughputOpsPerSec),
              formatCount,
              COUNT,
            )
          : '',
        i === 0
          ? figure(
              results.map((x) => x.store.diskBytes),
              formatMiB,
              MIB,
              'n/a',
            )
          : '',
        i === 0 ? figure(results.map(compactedBytes), formatMiB, MIB, 'n/a') : '',
        figure(builds, formatSeconds, SECONDS),
      ];
      let verified = 0;
      const problems = new Set<string>();
      for (const q of QUERIES) {
        // A query counts as verified only when every round's answers were.
        const statuses = results.map((x) => queryStatus(x, variant, q.id));
        const status = statuses.find((st) => st !== 'verified') ?? 'verified';
        const ms = results.map((x) => meanMs(x, queryRow(variant, q.id)));
        cells.push(
          status === 'verified' && ms.every((v) => v !== undefined) ? figure(ms, formatMs, MS) : STATUS_MARK[status],
        );
        if (status === 'verified') verified++;
        else problems.add(STATUS_MARK[status]);
      }
      cells.push(verified === QUERIES.length ? '✓ 5/5' : `${verified}/5 (${[...problems].join(', ')})`);
      rows.push(cells);
    }
  }
  const header = [
    'docs',
    'shape',
    'indexes',
    'store',
    'variant',
    ...(repeated ? ['rounds'] : []),
    'insert (s)',
    'docs/s',
    'disk (MiB)',
    'compacted (MiB)',
    'index/view build (s)',
    ...QUERIES.map((q) => `${q.id} (ms)`),
    'verified',
  ];
  const align = header.map(
    (_, i) => (i < 5 ? 'left' : i === header.length - 1 ? 'center' : 'right') as 'left' | 'right' | 'center',
  );
  const lines = [markdownTable(header, rows, align)];
  // A run whose verdict is invalid says so under the table (its cells already mark each query's status).
  for (const r of runs)
    for (const result of [r.load, r.run])
      if (result && !isValid(result))
        lines.push(
          `${result.phase} on ${storeName(result)}, ${formatCount(r.settings.size)} ${r.settings.shape}${result.repetition ? ` (round ${result.repetition.round})` : ''}: ${verdictLine(verdictOf(result))}.`,
        );
  const counts = new Map<string, string>();
  for (const r of withQueries) {
    const key = `${formatCount(r.settings.size)} ${r.settings.shape}`;
    if (!counts.has(key))
      counts.set(key, QUERIES.map((q) => `${q.id} ${formatCount(expectedCount(r.run!, q.id) ?? 0)}`).join(', '));
  }
  for (const [key, text] of counts)
    lines.push(
      `Matching documents (the oracle's counts, every answer checked by count, id checksum and body checksum), ${key}: ${text}.`,
    );
  const modes = new Set(withQueries.map((r) => insertLabel(r.load)));
  lines.push(
    `Insert: ${[...modes].join('; ')}${modes.has('one insert per document') ? " (the thesis's insert time: each document written alone with the store's single-document write, one after another unless --threads says otherwise)" : ''}.`,
  );
  const sizes = new Map<string, string>();
  for (const r of withQueries) {
    const extra = r.run!.store.extra ?? {};
    const compacted = extra['persons.disk.compactedMethod'];
    const after =
      compacted !== undefined
        ? `after compaction: ${String(compacted)}`
        : `compaction: ${String(extra['persons.compaction'] ?? 'none')}`;
    sizes.set(r.store, `${r.store}: size on disk: ${String(extra['persons.disk.method'] ?? 'unknown')}; ${after}.`);
  }
  lines.push(...sizes.values());
  const standIns = new Map(
    withQueries.filter((r) => r.run!.store.standIn).map((r) => [r.store, r.run!.store.standIn!]),
  );
  for (const [store, s] of standIns)
    lines.push(`${store}: figures come from a STAND-IN, ${standInName(s)}, not the real product.`);
  const cpu = describeMachineCpu(withQueries.flatMap((r) => [r.load, r.run!]));
  if (cpu !== undefined) lines.push(`${cpu}.`);
  if (repeated)
    lines.push(
      "A row of several rounds (--repetitions) shows each figure's median over its rounds with its 95% confidence interval [low, high] (a query time: the median of each round's mean of its repeats), and a query as verified only when every round's answers were (docs/statistics.md).",
    );
  lines.push(
    'Query times are the mean of the repeats, from the first request to the last document read; "index/view build" is what a variant needs built before its queries (secondary indexes, views, an index catching up with the load), timed after the load and apart from insert and queries; Redis writes its index sets with each document, inside the insert time.',
  );
  const plans = renderPlans(withQueries.map((r) => r.run!));
  return `${lines.join('\n')}\n${plans === '' ? '' : `\n${plans}`}`;
}

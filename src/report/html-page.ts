import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Result, StudyInfo } from '../results/schema.ts';
import { isValid } from '../results/verdict.ts';
import type { ChartSpec } from './chart-spec.ts';
import { capacityCurves, isCapacityStep } from './capacity-curves.ts';
import { capacitySection } from './capacity-html.ts';
import { capacityCharts } from './charts-capacity.ts';
import { costCharts, percentileCharts, representativeCells } from './charts-latency-cost.ts';
import { runsOperationSeriesCharts } from './charts-operation-series.ts';
import { scalingCharts, throughputCharts, timeSeriesCharts } from './charts-throughput.ts';
import { machineLine, standInLine, versionsLine, whatRanLine } from './context.ts';
import { cellsOf, distinct, repetitionOf, seriesLabel } from './groups.ts';
import { CHART_SCRIPT } from './html-script.ts';
import { anyRepeated, summarizeCells } from './cell-statistics.ts';
import type { DiffReport } from './diff.ts';
import { diffHtml } from './diff-render.ts';
import { rankCells, rankingLead, rankingRows, RANKING_HEADER } from './rankings.ts';
import { ONE_RUN_NOTE } from '../stats/format.ts';
import { escapeHtml, htmlTable, invalidList, notesList, plansTable, runsTable, storesTable } from './html-tables.ts';

/** A table of figures beside the charts, e.g. a study's published figures and docbench's. */
export interface FigureTable {
  title: string;
  /** Where the figures come from (for published ones: the paper, its table, its hardware). */
  note: string;
  header: string[];
  rows: string[][];
}

export interface HtmlReportOptions {
  title?: string;
  /** Tables shown first, before the charts (a study's published figures beside docbench's). */
  figures?: FigureTable[];
  /** Charts in a study's own shapes, shown with the figures, before the general charts. */
  charts?: ChartSpec[];
  /**
   * The study whose deviations head the page; by default the one the results carry (a study's
   * results each keep theirs, so `docbench report` on a study folder shows them too).
   */
  study?: StudyInfo;
  /** The practical threshold of the verdicts, a fraction (default 0.05). */
  minEffect?: number;
  /** A diff against a baseline (`report --baseline`), shown in its own section. */
  baseline?: { label: string; diff: DiffReport };
}

/** The study the results were made by (the first one carried), if any. */
export function studyOf(results: readonly Result[]): StudyInfo | undefined {
  return results.find((r) => r.study !== undefined)?.study;
}

/** How the run differs from its paper: the first thing a reader of a study's report sees. */
function deviationsSection(study: StudyInfo | undefined): string {
  if (!study) return '';
  const rows = study.deviations.map((d) => [d.item, d.paper, d.docbench]);
  const variant = study.variant ? `, variant ${study.variant}` : '';
  return `<h2>How this run differs from the paper (${escapeHtml(study.name)}, --scale ${escapeHtml(study.scale)}${escapeHtml(variant)})</h2><p class="note">${escapeHtml(study.title)}. Every difference between what the paper ran and what docbench ran here; its figures are read with these in mind.</p>${htmlTable(['item', 'the paper (its words, where)', 'this run'], rows, 99)}`;
}

/** Chart.js's own UMD build, read from the installed package and inlined: the report opens offline. */
export function chartLibrarySource(): string {
  const require = createRequire(import.meta.url);
  return readFileSync(join(dirname(require.resolve('chart.js')), 'chart.umd.min.js'), 'utf8');
}

/**
 * Every chart a set of results supports, in the page's order. A capacity search's steps are runs
 * of one store at many rates, not repetitions of one cell: they get the capacity charts alone.
 */
export function chartsOf(all: readonly Result[]): ChartSpec[] {
  const results = all.filter((r) => !isCapacityStep(r));
  const chosen = representativeCells(results);
  return [
    ...capacityCharts(all.filter(isCapacityStep), isValid),
    ...throughputCharts(results),
    ...scalingCharts(results),
    ...percentileCharts(results, chosen),
    ...timeSeriesCharts(results, chosen),
    ...runsOperationSeriesCharts(firstRunsByWorkload(results, chosen)),
    ...costCharts(results, chosen),
  ];
}

/** The first repetition of each chosen cell's run, by workload: whose series a report draws. */
function firstRunsByWorkload(
  results: readonly Result[],
  chosen: (cell: ReturnType<typeof cellsOf>[number]) => boolean,
): Map<string, Result[]> {
  const cells = cellsOf(results.filter((r) => r.phase === 'run' && r.operationSeries !== undefined)).filter(chosen);
  const out = new Map<string, Result[]>();
  for (const workload of distinct(cells.map((c) => c.workload))) {
    out.set(
      workload,
      cells
        .filter((c) => c.workload === workload)
        .map((c) => [...c.runs].sort((a, b) => (repetitionOf(a) ?? 0) - (repetitionOf(b) ?? 0))[0]!),
    );
  }
  return out;
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 24px; color: #222; }
h1 { font-size: 22px; margin-bottom: 4px; } h2 { margin-top: 32px; border-bottom: 1px solid #ddd; }
.context { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; font-size: 15px; margin: 12px 0; max-width: 1200px; }
.context dt { font-weight: 600; } .context dd { margin: 0; } .standin, .invalid { color: #a00; font-weight: 600; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(620px, 1fr)); gap: 16px; }
.chart { position: relative; height: 400px; border: 1px solid #e3e3e3; border-radius: 6px; padding: 8px; background: #fff; }
table { border-collapse: collapse; font-size: 12px; margin: 8px 0 16px; } th, td { border: 1px solid #ddd; padding: 3px 6px; text-align: left; vertical-align: top; max-width: 480px; overflow-wrap: break-word; }
th { background: #f4f4f4; } td.num { text-align: right; white-space: nowrap; } .note { color: #555; font-size: 12px; }
`;

/** One self-contained HTML page: the chart library and every figure inlined, no network needed. */
export function renderHtmlReport(results: readonly Result[], options: HtmlReportOptions = {}): string {
  // Invalid runs measured no store work: no chart draws them (the tables and the list below say why).
  const charts = [...(options.charts ?? []), ...chartsOf(results.filter(isValid))];
  const invalid = invalidList(results);
  const sections = [...new Set(charts.map((c) => c.section))];
  const standIns = standInLine(results);
  const title = options.title ?? 'docbench report';
  const figures = (options.figures ?? [])
    .map(
      (f) =>
        `<h3>${escapeHtml(f.title)}</h3><p class="note">${escapeHtml(f.note)}</p>${htmlTable(f.header, f.rows, 1)}`,
    )
    .join('\n');
  const plans = plansTable(results);
  const capacity = capacitySection(capacityCurves(results.filter(isCapacityStep), seriesLabel));
  const others = results.filter((r) => !isCapacityStep(r));
  const runs = others.filter((r) => r.phase === 'run');
  const statistics = summarizeCells(runs.length > 0 ? runs : others);
  const repeated = anyRepeated(statistics);
  const rankings = repeated
    ? rankCells(statistics, options.minEffect !== undefined ? { minEffect: options.minEffect } : {})
    : [];
  // The machine, the versions and the stand-ins, once, where a reader starts: no chart repeats them.
  const context: [string, string][] = [
    ['What ran', whatRanLine(results).replace(/^what: /, '')],
    ['Machine', machineLine(results).replace(/^where: /, '')],
    ['Versions', versionsLine(results).replace(/^versions: /, '')],
    ['Results', `${results.length} result${results.length === 1 ? '' : 's'}, ${timeRange(results)}`],
  ];
  const body = [
    `<h1>${escapeHtml(title)}</h1>`,
    `<dl class="context">${context.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join('')}`,
    standIns
      ? `<dt class="standin">Stand-ins</dt><dd class="standin">${escapeHtml(standIns.replace(/^STAND-INS, not the real products: /, ''))}: not the real products; their figures say nothing about the products they stand in for.</dd>`
      : '',
    `</dl>`,
    deviationsSection(options.study ?? studyOf(results)),
    invalid ? `<h2>Invalid runs</h2>${invalid}` : '',
    figures ? `<h2>Figures</h2>${figures}` : '',
    capacity ? `<h2>Capacity</h2>${capacity}` : '',
    rankings.length > 0
      ? `<h2>Is the difference real?</h2><p class="note">${escapeHtml(rankingLead(options.minEffect))} docs/statistics.md says how.</p>${htmlTable([...RANKING_HEADER], rankingRows(rankings), 3)}`
      : '',
    options.baseline
      ? `<h2>Against the baseline</h2><p class="note">${escapeHtml(`BASE: ${options.baseline.label}. Each figure of each cell both measured: NEW over BASE with its 95% confidence interval, and the verdict.`)}</p>${diffHtml(options.baseline.diff)}`
      : '',
    ...sections.map(
      (section) =>
        `<h2>${escapeHtml(section)}</h2><div class="charts">${charts
          .filter((c) => c.section === section)
          .map(
            (c) =>
              `<div class="chart"><canvas id="${c.id}" role="img" aria-label="${escapeHtml(c.title)}"></canvas></div>`,
          )
          .join('\n')}</div>`,
    ),
    others.length > 0 ? `<h2>Runs</h2><p class="note">${escapeHtml(runsNote(repeated))}</p>${runsTable(others)}` : '',
    plans ? `<h2>Query plans</h2>${plans}` : '',
    `<h2>Stores</h2>${storesTable(results)}`,
    `<h2>Notes</h2>${notesList(results)}`,
  ].join('\n');
  // `<` is escaped in the JSON so no string in it can close the script element.
  const data = JSON.stringify(charts).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body>
${body}
<script type="application/json" id="docbench-charts">${data}</script>
<script>${chartLibrarySource()}</script>
<script>${CHART_SCRIPT}</script>
</body></html>
`;
}

/** What the runs table's figures are. */
function runsNote(repeated: boolean): string {
  if (!repeated)
    return `Repeated runs show the median and [min–max]; latency percentiles come from the runs' HDR histograms added together. ${ONE_RUN_NOTE}`;
  return "A repeated cell's ops/s is the median over its repetitions with its 95% confidence interval [low, high], n and the coefficient of variation; runtime and costs show the median and [min–max]; the p50 and p99 columns are the percentiles of all its runs' samples together (their HDR histograms added). The charts' whiskers are 95% intervals of medians over repetitions (for latency, of each run's own percentile).";
}

function timeRange(results: readonly Result[]): string {
  const starts = results.map((r) => r.startedAt).sort();
  const ends = results.map((r) => r.endedAt).sort();
  return `${starts[0]} to ${ends[ends.length - 1]}`;
}

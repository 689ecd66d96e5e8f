import { join } from 'node:path';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic } from '../results/write.ts';
import { renderComparisonTable, renderRunContext } from './comparison-table.ts';
import { renderCsv } from './csv.ts';
import { renderDiff } from './diff-render.ts';
import { renderHtmlReport, type HtmlReportOptions } from './html-page.ts';
import { statisticsDocument } from './statistics-json.ts';

/** The file a command writes its HTML report to, next to its results. */
export const REPORT_FILE = 'report.html';

export interface ReportOutputs {
  html?: string;
  csv?: string;
  md?: string;
  /** Each cell's statistics over its repetitions, the rankings and any baseline diff (statistics-json.ts). */
  json?: string;
}

/** Write the asked-for renderings of `results`; returns the paths written. */
export function writeReports(
  results: readonly Result[],
  outputs: ReportOutputs,
  options: HtmlReportOptions = {},
): string[] {
  const written: string[] = [];
  if (outputs.html !== undefined) {
    writeFileAtomic(outputs.html, renderHtmlReport(results, options));
    written.push(outputs.html);
  }
  if (outputs.csv !== undefined) {
    writeFileAtomic(outputs.csv, renderCsv(results));
    written.push(outputs.csv);
  }
  if (outputs.md !== undefined) {
    const runs = results.filter((r) => r.phase === 'run');
    const baseline = options.baseline
      ? `\nAgainst the baseline ${options.baseline.label}:\n\n${renderDiff(options.baseline.diff)}`
      : '';
    writeFileAtomic(
      outputs.md,
      `${renderComparisonTable(runs.length > 0 ? runs : results, minEffectOf(options))}\n${renderRunContext(results)}${baseline}`,
    );
    written.push(outputs.md);
  }
  if (outputs.json !== undefined) {
    const document = statisticsDocument(results, {
      ...minEffectOf(options),
      ...(options.baseline ? { baseline: options.baseline.diff } : {}),
    });
    writeFileAtomic(outputs.json, `${JSON.stringify(document, null, 2)}\n`);
    written.push(outputs.json);
  }
  return written;
}

function minEffectOf(options: HtmlReportOptions): { minEffect?: number } {
  return options.minEffect !== undefined ? { minEffect: options.minEffect } : {};
}

/**
 * The HTML report a command writes beside its result files (compare, sweep, ecommerce, persons,
 * k6), its path printed on stderr. A report that fails to render must not lose the run: the
 * results are already on disk, so the failure is reported and `docbench report` can retry.
 */
export function writeReportBeside(
  outDir: string,
  results: readonly Result[],
  options: HtmlReportOptions = {},
): string | undefined {
  const path = join(outDir, REPORT_FILE);
  try {
    writeReports(results, { html: path }, options);
    process.stderr.write(`report: ${path}\n`);
    return path;
  } catch (error) {
    process.stderr.write(
      `report: could not write ${path} (${(error as Error).message}); run docbench report ${outDir} to retry\n`,
    );
    return undefined;
  }
}

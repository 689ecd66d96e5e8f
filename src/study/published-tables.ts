/**
 * A paper's published figures as report tables (labelled as the paper's, with where they stand,
 * how they were obtained, the statistic and the unit), and its own arithmetic re-done.
 */
import type { FigureTable } from '../report/html-page.ts';
import { markdownTable } from '../report/markdown.ts';
import { checkHolds, lookupIn, type Deviation } from './paper.ts';
import type { StudyPreset } from './preset.ts';

export const PUBLISHED_PREFIX = "PUBLISHED (the paper's)";

/** The short name of the paper (its preset's title up to the colon). */
const paperName = (preset: StudyPreset) => preset.title.split(':')[0]!;

export function publishedFigures(preset: StudyPreset): FigureTable[] {
  return preset.published.map((t) => ({
    title: `${PUBLISHED_PREFIX}: ${paperName(preset)}, ${t.title}`,
    note: [`${t.where}; ${t.provenance}; ${t.statistic}; unit: ${t.unit}.`, t.note ?? ''].filter(Boolean).join(' '),
    header: t.header,
    rows: t.rows,
  }));
}

/** The paper's arithmetic: how many of its figures agree, and every one that does not. */
export function arithmeticSummary(preset: StudyPreset): {
  holding: number;
  total: number;
  off: { claim: string; where: string; printed: number; computed: number; discrepancy: string }[];
} {
  const cell = lookupIn(preset.published);
  const off = [];
  let holding = 0;
  for (const check of preset.checks) {
    const { holds, printed, computed } = checkHolds(check, cell);
    if (holds) holding += 1;
    else
      off.push({
        claim: check.claim,
        where: check.where,
        printed,
        computed,
        discrepancy: check.discrepancy ?? 'not explained',
      });
  }
  return { holding, total: preset.checks.length, off };
}

const number = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 3 });

export function arithmeticTable(preset: StudyPreset): FigureTable {
  const { holding, total, off } = arithmeticSummary(preset);
  return {
    title: `${PUBLISHED_PREFIX}: ${paperName(preset)}, its own arithmetic re-done`,
    note:
      total === 0
        ? 'The paper prints no totals or ratios to re-compute.'
        : off.length === 0
          ? `All ${total} of the totals, ratios and conversions the paper prints agree with its other figures (to the printed digits).`
          : `${holding} of the ${total} totals, ratios and conversions the paper prints agree with its other figures (to the printed digits); the rows below do not, as found in the paper (docbench keeps its figures as printed).`,
    header: ['claim', 'where', 'printed', 'from its other figures', 'what is off'],
    rows: off.map((o) => [o.claim, o.where, number(o.printed), number(o.computed), o.discrepancy]),
  };
}

/** The deviations as a table: the first thing printed before a run and at the top of its report. */
export function deviationsTable(preset: StudyPreset, deviations: readonly Deviation[]): FigureTable {
  return {
    title: `How this run differs from ${paperName(preset)}`,
    note: `${preset.citation} Every difference between what the paper ran and what this run does; read its figures with these in mind.`,
    header: ['item', 'the paper (its words, where)', 'this run'],
    rows: deviations.map((d) => [d.item, d.paper, d.docbench]),
  };
}

/** Figure tables as Markdown sections (study.md, the terminal, --plan). */
export function figuresMarkdown(figures: readonly FigureTable[]): string {
  // A column of figures is right-aligned; one of words stays left.
  const align = (f: FigureTable) =>
    f.header.map((_, i) =>
      i > 0 && f.rows.every((r) => (r[i] ?? '') === '' || /^[≈\d]/.test(r[i]!))
        ? ('right' as const)
        : ('left' as const),
    );
  return figures
    .map(
      (f) =>
        `## ${f.title}\n\n${f.note}\n\n${f.rows.length > 0 ? markdownTable(f.header, f.rows, align(f)) : '(none)\n'}`,
    )
    .join('\n');
}

/**
 * The ratios a paper states beside the same ratios from docbench's results: one table, the
 * paper's figure (from its hardware) and this run's (from this machine), with what each of this
 * run's divides, or why the run cannot give it (a size not run, a cell left out or INVALID).
 */
import type { FigureTable } from '../report/html-page.ts';
import { figure } from './docbench-tables.ts';
import { lookupIn } from './paper.ts';
import type { StudyPreset } from './preset.ts';
import type { Result } from '../results/schema.ts';

export function ratiosTable(preset: StudyPreset, results: readonly Result[]): FigureTable | undefined {
  if (!preset.ratios || preset.ratios.length === 0) return undefined;
  const cell = lookupIn(preset.published);
  return {
    title: "docbench: the paper's ratios from this run, beside the paper's",
    note: "The paper's ratio from its hardware; this run's from this machine, computed as the paper computes its own (totals of the mean runtimes, or the figures it names), from valid runs only. A stand-in's ratio says nothing about the product.",
    header: ['claim', 'where', 'the paper', 'this run', 'this run divides'],
    rows: preset.ratios.map((r) => {
      const run = r.fromRun(results);
      return [
        r.claim,
        r.where,
        `${figure(r.paper(cell), 2)}×`,
        'value' in run ? `${figure(run.value, 2)}×` : '',
        'value' in run ? run.divides : `not computed: ${run.missing}`,
      ];
    }),
  };
}

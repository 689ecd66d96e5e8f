/**
 * What a study preset knows about its paper, as data: the figures the paper prints (verbatim, with
 * where they stand and how they were obtained), the paper's own arithmetic (totals and ratios a
 * test re-computes), and every way a docbench run differs from the paper's design.
 */
import type { Deviation, Result } from '../results/schema.ts';

export type { Deviation };

/**
 * How a published figure was obtained: printed in a table, stated in the paper's text, read off
 * one of its charts, or derived by docbench from what the paper states (a ratio times a base).
 */
export type Provenance = 'printed in a table' | 'stated in the text' | 'read off a chart' | 'derived from the text';

/** A table of the paper's figures, each cell as the paper prints it. */
export interface PublishedTable {
  /** Short id the arithmetic checks refer to (`table2`). */
  id: string;
  /** The paper's caption, or what the figures are when the paper has no table for them. */
  title: string;
  /** Table or figure, section and page. */
  where: string;
  provenance: Provenance;
  /** The paper's statistic for these figures (mean of 3 runs, one run, unstated). */
  statistic: string;
  unit: string;
  /** What else a reader must know to read them (hardware, what a blank cell means). */
  note?: string;
  header: string[];
  /** Cells verbatim (`85,910.67 s`, `314.27 s (5.24 min)`); the first cell names the row. */
  rows: string[][];
}

/** The numbers in a cell as printed: `314.27 s (5.24 min)` → [314.27, 5.24]. */
export function numbersIn(cell: string): number[] {
  return [...cell.matchAll(/\d[\d,]*(?:\.\d+)?/g)].map((m) => Number(m[0].replace(/,/g, '')));
}

/** Reads a published cell by table id, row label and column header (a missing one is an error). */
export interface PublishedLookup {
  (table: string, row: string, column: string, which?: number): number;
}

export function lookupIn(tables: readonly PublishedTable[]): PublishedLookup {
  return (tableId, row, column, which = 0) => {
    const table = tables.find((t) => t.id === tableId);
    if (!table) throw new Error(`no published table ${tableId}`);
    const c = table.header.indexOf(column);
    const r = table.rows.find((cells) => cells[0] === row);
    if (c < 0 || !r) throw new Error(`${tableId}: no cell (${row}, ${column})`);
    const value = numbersIn(r[c] ?? '')[which];
    if (value === undefined) throw new Error(`${tableId} (${row}, ${column}): no number ${which} in "${r[c]}"`);
    return value;
  };
}

/**
 * A figure the paper prints that its other figures determine (a total, a ratio, minutes from
 * seconds). A test re-computes it; where the paper's numbers disagree, the disagreement is kept
 * here as found, so a reader sees it and no preset silently "corrects" the paper.
 */
export interface ArithmeticCheck {
  claim: string;
  where: string;
  /** The figure as printed, read from the published tables. */
  printed: (cell: PublishedLookup) => number;
  /** The same figure from the paper's other printed figures. */
  computed: (cell: PublishedLookup) => number;
  /** Largest difference rounding to the printed digits explains. */
  tolerance: number;
  /**
   * How printed and computed compare: equal within the tolerance (default), or a bound the
   * paper states ("more than 40% less": the computed figure is at least the printed one).
   */
  relation?: 'equals' | 'at least';
  /** Present when the paper's own figures do not agree: what is off. */
  discrepancy?: string;
}

/** A store the paper ran: docbench's name for it and the product and version the paper names. */
export interface PaperStore {
  store: string;
  product: string;
  where: string;
}

/** Whether a check holds: the paper's figures agree with each other as it says they do. */
export function checkHolds(
  check: ArithmeticCheck,
  cell: PublishedLookup,
): { holds: boolean; printed: number; computed: number } {
  const printed = check.printed(cell);
  const computed = check.computed(cell);
  const holds =
    check.relation === 'at least'
      ? computed >= printed - check.tolerance
      : Math.abs(computed - printed) <= check.tolerance;
  return { holds, printed, computed };
}

/** A ratio from a docbench run: its value and what it divides, or why the run cannot give it. */
export type RunRatio = { value: number; divides: string } | { missing: string };

/**
 * A ratio the paper states (a store's total against another's, one size against another),
 * beside the same ratio from docbench's results, computed as the paper computes its own: a
 * same-run ratio, which says more than either figure alone on other hardware.
 */
export interface PaperRatio {
  claim: string;
  where: string;
  /** The ratio as the paper states it, read from its published tables. */
  paper: (cell: PublishedLookup) => number;
  fromRun: (results: readonly Result[]) => RunRatio;
}

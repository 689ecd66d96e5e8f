/**
 * A chart as data: what the page's script hands to Chart.js. Kept free of functions so a report
 * is one JSON blob plus the library; the script maps the named formats to tick formatters.
 */
export type AxisFormat = 'number' | 'percentile' | 'latency' | 'seconds' | 'percent';

export interface ChartDataset {
  label: string;
  /** Category charts: one value per label (null: no value); x/y charts: points. */
  data: (number | null)[] | { x: number; y: number }[];
  /**
   * Whiskers of repeated runs, aligned with `data`: the 95% confidence interval of the median over
   * repetitions (stats/summary.ts); null where a point has no repetitions.
   */
  ranges?: ([number, number] | null)[];
  dashed?: boolean;
  /** Datasets of one group share a colour (a row's p99, p50 and max); by default each has its own. */
  group?: string;
  /** Drawn only once its legend entry is clicked (a figure a reader may want, not the chart's point). */
  hidden?: boolean;
  /** Per point: `crossRot` marks a point that failed its test (a capacity step that did not hold). */
  pointStyles?: ('circle' | 'crossRot')[];
}

export interface ChartSpec {
  id: string;
  section: string;
  title: string;
  /** The chart's caption: what ran, on which stores, which run (the page says the machine and versions once). */
  subtitle: string[];
  type: 'bar' | 'line';
  /** Category labels (bar charts, category lines). */
  labels?: string[];
  x: { title: string; scale: 'category' | 'linear' | 'logarithmic'; format?: AxisFormat };
  y: { title: string; scale: 'linear' | 'logarithmic'; format?: AxisFormat };
  datasets: ChartDataset[];
}

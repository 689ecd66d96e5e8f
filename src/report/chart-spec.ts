/**
 * A chart as data: what the page's script hands to Chart.js. Kept free of functions so a report
 * is one JSON blob plus the library; the script maps the named formats to tick formatters.
 */
export type AxisFormat = 'number' | 'percentile' | 'latency' | 'seconds' | 'percent';

export interface ChartDataset {
  label: string;
  /** Category charts: one value per label (null: no value); x/y charts: points. */
  data: (number | null)[] | { x: number; y: number }[];
  /** Min–max whiskers of repeated runs, aligned with `data`. */
  ranges?: ([number, number] | null)[];
  dashed?: boolean;
}

export interface ChartSpec {
  id: string;
  section: string;
  title: string;
  /** What ran, where, versions, stand-ins. */
  subtitle: string[];
  type: 'bar' | 'line';
  /** Category labels (bar charts, category lines). */
  labels?: string[];
  x: { title: string; scale: 'category' | 'linear' | 'logarithmic'; format?: AxisFormat };
  y: { title: string; scale: 'linear' | 'logarithmic'; format?: AxisFormat };
  datasets: ChartDataset[];
}

/**
 * Which figures a diff compares (`docbench diff --figures`), apart from the diff itself so the
 * CLI can offer the choices without loading it. `throughput` leaves the latencies out: a shared
 * CI runner's latencies may be too noisy to gate a build on.
 */
export const DIFF_FIGURES = ['all', 'throughput', 'latency'] as const;
export type DiffFigures = (typeof DIFF_FIGURES)[number];

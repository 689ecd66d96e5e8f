/**
 * The capacity command's work from start to end: the search (run-capacity.ts), then the curve as
 * a table on stdout and in `capacity.md`, as rows in `capacity.json`, and drawn in the HTML
 * report beside the step results. Interrupted, the steps done are kept and summarised.
 */
import { basename, join } from 'node:path';
import type { LiveMetrics } from '../metrics/live-metrics.ts';
import { bracketOf, capacityCurves, type StepJudgment } from '../report/capacity-curves.ts';
import { renderCapacityTable } from '../report/capacity-table.ts';
import { renderRunContext } from '../report/comparison-table.ts';
import { seriesLabel } from '../report/groups.ts';
import { writeReportBeside } from '../report/report-files.ts';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic } from '../results/write.ts';
import { interrupts } from '../common/interrupts.ts';
import { runCapacity, type CapacityOptions } from './run-capacity.ts';
import { capacitySummary, writeCapacitySummary } from './summary.ts';

/** Each step as live metrics: its rows while it runs, then its verdict and the highest rate held so far. */
function metricsHooks(metrics: LiveMetrics | undefined): Pick<CapacityOptions, 'observe' | 'onStep'> {
  if (metrics === undefined) return {};
  const tried = new Map<string, StepJudgment[]>();
  const labels = (store: string, workload: string) => ({ store, workload, phase: 'run' as const });
  return {
    observe: (store, workload, _step, target) => metrics.start(labels(store, workload), target),
    onStep: (judgment) => {
      const r = judgment.result;
      // One search's steps: the store's in this round.
      const search = `${r.store.name} ${r.repetition?.round ?? 1}`;
      const steps = [...(tried.get(search) ?? []), judgment];
      tried.set(search, steps);
      metrics.finish(
        labels(r.store.name, r.workload.name),
        judgment.valid ? 'valid' : 'invalid',
        bracketOf(steps).highestHeld,
      );
    },
  };
}

export function capacityCommand(options: CapacityOptions & { metrics?: LiveMetrics }): Promise<Result[]> {
  return interrupts.holding(async () => {
    const files = new Map<Result, string>();
    const results = await runCapacity({
      ...options,
      ...metricsHooks(options.metrics),
      onWritten: (result, path) => files.set(result, basename(path)),
    });
    if (results.length === 0) return results;
    const curves = capacityCurves(results, seriesLabel);
    const table = renderCapacityTable(curves);
    const context = renderRunContext(results);
    process.stdout.write(`\n${table}\n${context}`);
    writeFileAtomic(join(options.outDir, 'capacity.md'), `${table}\n${context}`);
    writeCapacitySummary(
      join(options.outDir, 'capacity.json'),
      capacitySummary(curves, (r) => files.get(r) ?? ''),
    );
    process.stderr.write(`results written to ${options.outDir}\n`);
    writeReportBeside(options.outDir, results, { title: `docbench capacity: ${curves[0]?.slo ?? ''}` });
    if (interrupts.signal !== undefined)
      process.stderr.write(
        `docbench: interrupted by ${interrupts.signal}: the table holds the ${results.length} step(s) done\n`,
      );
    return results;
  });
}

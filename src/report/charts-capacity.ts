/**
 * The capacity curve ("hockey stick"): for each store, the `Intended-` latency of each step
 * against the rate offered, the worst operation kind's p99 (and p50, p99.9 a click away), a cross
 * where the step did not hold, and the budget as a line; then each store's per-operation series
 * at the highest rate that held and at the rate that failed above it. Repeated searches
 * (`--repetitions`) are one line each, named `store #round`. Invalid steps are in no chart (the
 * page lists them).
 */
import type { Result } from '../results/schema.ts';
import { parseLatencyBudget } from '../results/slo.ts';
import { capacityCurves, type CapacityCurve, type StepJudgment } from './capacity-curves.ts';
import type { ChartDataset, ChartSpec } from './chart-spec.ts';
import { chartId } from './charts-throughput.ts';
import { operationSeriesCharts } from './charts-operation-series.ts';
import { captionOf } from './context.ts';
import { distinct, seriesLabel } from './groups.ts';
import { searchName } from './capacity-table.ts';

const PERCENTILES = [
  { key: '99', label: 'p99' },
  { key: '50', label: 'p50' },
  { key: '99.9', label: 'p99.9' },
] as const;

function held(curve: CapacityCurve): string {
  if (curve.highestHeld === undefined) return `${searchName(curve)}: none held`;
  return `${searchName(curve)}: ${curve.highestHeld.toLocaleString('en-US')} ops/s${curve.lowestFailed === undefined ? ' or more' : ` (failed at ${curve.lowestFailed.toLocaleString('en-US')})`}`;
}

function curveChart(curves: readonly CapacityCurve[], valid: (s: StepJudgment) => boolean): ChartSpec {
  const first = curves[0]!;
  const datasets: ChartDataset[] = [];
  let maxRate = 0;
  for (const curve of curves) {
    const steps = curve.steps.filter(valid).sort((a, b) => a.targetOpsPerSec - b.targetOpsPerSec);
    maxRate = Math.max(maxRate, ...steps.map((s) => s.targetOpsPerSec));
    for (const p of PERCENTILES) {
      datasets.push({
        label: `${searchName(curve)} Intended ${p.label}`,
        group: searchName(curve),
        data: steps.map((s) => ({ x: s.targetOpsPerSec, y: Math.max(1, s.worstUs[p.key]) })),
        ...(p.key === '99' ? { pointStyles: steps.map((s) => (s.held ? 'circle' : 'crossRot')) } : { dashed: true }),
        ...(p.key === '99.9' ? { hidden: true } : {}),
      });
    }
  }
  for (const clause of parseLatencyBudget(first.slo)) {
    datasets.push({
      label: `budget: ${clause.operation ?? 'every operation'} p${clause.percentile} ≤ ${clause.limitUs / 1000} ms`,
      group: 'budget',
      dashed: true,
      data: [
        { x: 0, y: clause.limitUs },
        { x: maxRate, y: clause.limitUs },
      ],
    });
  }
  const runs = curves.flatMap((c) => c.steps.filter(valid).map((s) => s.result));
  return {
    id: chartId('capacity'),
    section: 'Capacity curve',
    title: `${first.workload}: Intended- latency against the rate offered, budget ${first.slo} (✕: the step did not hold)`,
    subtitle: [...captionOf(runs), `highest rate that held: ${curves.map(held).join('; ')}`],
    type: 'line',
    x: { title: 'offered load (operations per second, open model)', scale: 'linear', format: 'number' },
    y: {
      title: 'latency from the intended start, worst operation kind (log)',
      scale: 'logarithmic',
      format: 'latency',
    },
    datasets,
  };
}

/** The step at the capacity and the one that failed above it, per store. */
function edgeSteps(curve: CapacityCurve, valid: (s: StepJudgment) => boolean): { step: StepJudgment; what: string }[] {
  const at = (rate: number | undefined) => curve.steps.filter((s) => s.targetOpsPerSec === rate && valid(s));
  const out: { step: StepJudgment; what: string }[] = [];
  // A rate tried twice held on the try that held; a rate that failed is shown by its last try.
  const heldStep = at(curve.highestHeld).find((s) => s.held);
  if (heldStep) out.push({ step: heldStep, what: 'held' });
  const failedStep = at(curve.lowestFailed).at(-1);
  if (failedStep) out.push({ step: failedStep, what: 'did not hold' });
  return out;
}

export function capacityCharts(steps: readonly Result[], isValid: (r: Result) => boolean): ChartSpec[] {
  const curves = capacityCurves(steps, seriesLabel);
  const valid = (s: StepJudgment) => isValid(s.result);
  const out: ChartSpec[] = [];
  for (const key of distinct(curves.map((c) => JSON.stringify([c.search, c.workload, c.slo])))) {
    const these = curves.filter((c) => JSON.stringify([c.search, c.workload, c.slo]) === key);
    if (these.some((c) => c.steps.some(valid))) out.push(curveChart(these, valid));
    for (const curve of these) {
      for (const { step, what } of edgeSteps(curve, valid)) {
        out.push(
          ...operationSeriesCharts(
            [{ label: searchName(curve), result: step.result }],
            `${searchName(curve)} at ${step.targetOpsPerSec.toLocaleString('en-US')} ops/s (step ${step.step}, ${what})`,
            'Capacity: each operation at the edge',
          ),
        );
      }
    }
  }
  return out;
}

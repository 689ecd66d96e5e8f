/**
 * `capacity.json`: a capacity search's curve as rows, one per step and store, next to the step
 * results it is judged from (which carry every histogram). Checked against its schema as it is
 * written, as every result file is.
 */
import { z } from 'zod';
import type { CapacityCurve } from '../report/capacity-curves.ts';
import { machineSchema, storeInfoSchema, verdictSchema } from '../results/schema.ts';
import { writeFileAtomic } from '../results/write.ts';

const judgedSchema = z.object({
  row: z.string(),
  percentile: z.number(),
  limitUs: z.number(),
  valueUs: z.number(),
  samples: z.number().int().nonnegative(),
  ok: z.boolean(),
});

export const capacitySummarySchema = z.object({
  kind: z.literal('capacity'),
  /** The latency budget as given (`p99<=5ms`) and the error budget (a fraction). */
  slo: z.string(),
  errorBudget: z.number().min(0).max(1),
  machine: machineSchema,
  stores: z.array(
    z.object({
      store: storeInfoSchema,
      workload: z.string(),
      /** The highest offered rate that held below every rate that failed (absent: none held). */
      highestHeldOpsPerSec: z.number().optional(),
      /** The lowest offered rate above it that failed (absent: every rate tried held). */
      lowestFailedOpsPerSec: z.number().optional(),
      steps: z.array(
        z.object({
          step: z.number().int().positive(),
          /** The result file of the step (beside this one). */
          file: z.string(),
          targetOpsPerSec: z.number(),
          achievedOpsPerSec: z.number(),
          issuedOpsPerSec: z.number(),
          measuredSeconds: z.number(),
          errorRate: z.number(),
          /** Worst operation kind's `Intended-` latency at p50, p99, p99.9 (µs): the curve's points. */
          intendedUs: z.object({ p50: z.number(), p99: z.number(), 'p99.9': z.number() }),
          judged: z.array(judgedSchema),
          verdict: verdictSchema,
          stoppedEarly: z.boolean(),
          held: z.boolean(),
          why: z.array(z.string()),
          /** Machine load average (1, 5, 15 min) before / after the step. */
          loadAverage: z.string(),
        }),
      ),
    }),
  ),
});

export type CapacitySummary = z.infer<typeof capacitySummarySchema>;

/** The summary of the curves; `fileOf` names each step's result file. */
export function capacitySummary(
  curves: readonly CapacityCurve[],
  fileOf: (result: CapacityCurve['steps'][number]['result']) => string,
): CapacitySummary {
  const first = curves[0]!.steps[0]!.result;
  return capacitySummarySchema.parse({
    kind: 'capacity',
    slo: curves[0]!.slo,
    errorBudget: curves[0]!.errorBudget,
    machine: first.machine,
    stores: curves.map((c) => ({
      store: c.steps[0]!.result.store,
      workload: c.workload,
      ...(c.highestHeld !== undefined ? { highestHeldOpsPerSec: c.highestHeld } : {}),
      ...(c.lowestFailed !== undefined ? { lowestFailedOpsPerSec: c.lowestFailed } : {}),
      steps: c.steps.map((s) => ({
        step: s.step,
        file: fileOf(s.result),
        targetOpsPerSec: s.targetOpsPerSec,
        achievedOpsPerSec: s.achievedOpsPerSec,
        issuedOpsPerSec: s.issuedOpsPerSec,
        measuredSeconds: s.result.overall.runtimeMs / 1000,
        errorRate: s.errorRate,
        intendedUs: { p50: s.worstUs['50'], p99: s.worstUs['99'], 'p99.9': s.worstUs['99.9'] },
        judged: s.judged,
        verdict: s.result.verdict ?? { status: s.valid ? 'valid' : 'invalid', reasons: [] },
        stoppedEarly: s.stoppedEarly,
        held: s.held,
        why: s.why,
        loadAverage: String(s.result.workload.properties['capacity.loadaverage'] ?? ''),
      })),
    })),
  });
}

export function writeCapacitySummary(path: string, summary: CapacitySummary): void {
  writeFileAtomic(path, `${JSON.stringify(capacitySummarySchema.parse(summary), null, 2)}\n`);
}

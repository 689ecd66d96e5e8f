/**
 * `capacity.json`: per store its capacity over the searches (median, range, n, and whether they
 * agree), then each search's curve as rows, one per step, next to the step results it is judged
 * from (which carry every histogram). Checked against its schema as it is written, as every
 * result file is.
 */
import { z } from 'zod';
import type { CapacityCurve } from '../report/capacity-curves.ts';
import { capacityOverSearches } from '../report/capacity-spread.ts';
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

const stepSchema = z.object({
  step: z.number().int().positive(),
  /** The try at this rate: 1, or 2 and on for a retry after a step that did not hold. */
  attempt: z.number().int().positive(),
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
      /** The store's capacity over its searches (report/capacity-spread.ts says how). */
      capacity: z.object({
        /** Searches run (`--repetitions`). */
        searches: z.number().int().nonnegative(),
        /** Searches with a figure (none of their steps invalid). */
        n: z.number().int().nonnegative(),
        /** Median of the searches' highest rates that held, ops/s (0: none held); absent when n = 0. */
        medianOpsPerSec: z.number().optional(),
        minOpsPerSec: z.number().optional(),
        maxOpsPerSec: z.number().optional(),
        /** Searches whose highest rate tried held: their figure is a lower bound. */
        lowerBounds: z.number().int().nonnegative(),
        /** One search held at or above a rate another failed at: no single figure is the store's. */
        unstable: z.boolean(),
        why: z.string().optional(),
        /** When the searches agree: the rates every search's bracket holds (no high: no top). */
        agreedOpsPerSec: z.object({ low: z.number(), high: z.number().optional() }).optional(),
      }),
      /** One per round, in round order. */
      searches: z.array(
        z.object({
          /** The round of `--repetitions` (1 for a single search). */
          round: z.number().int().positive(),
          /** The round's order of stores, as drawn (absent for a single search). */
          order: z.array(z.string()).optional(),
          /** The highest offered rate that held below every rate that failed (absent: none held). */
          highestHeldOpsPerSec: z.number().optional(),
          /** The lowest offered rate above it that failed on every try (absent: every rate tried held). */
          lowestFailedOpsPerSec: z.number().optional(),
          steps: z.array(stepSchema),
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
    stores: capacityOverSearches(curves).map(({ curves: searches, spread }) => ({
      store: searches[0]!.steps[0]!.result.store,
      workload: searches[0]!.workload,
      capacity: {
        searches: spread.searches,
        n: spread.n,
        ...(spread.median !== undefined
          ? { medianOpsPerSec: spread.median, minOpsPerSec: spread.min, maxOpsPerSec: spread.max }
          : {}),
        lowerBounds: spread.lowerBounds,
        unstable: spread.unstable,
        ...(spread.why !== undefined ? { why: spread.why } : {}),
        ...(spread.agreed !== undefined ? { agreedOpsPerSec: spread.agreed } : {}),
      },
      searches: searches.map((c) => ({
        round: c.round ?? 1,
        ...(c.steps[0]!.result.repetition ? { order: c.steps[0]!.result.repetition.order } : {}),
        ...(c.highestHeld !== undefined ? { highestHeldOpsPerSec: c.highestHeld } : {}),
        ...(c.lowestFailed !== undefined ? { lowestFailedOpsPerSec: c.lowestFailed } : {}),
        steps: c.steps.map((s) => ({
          step: s.step,
          attempt: s.attempt,
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
    })),
  });
}

export function writeCapacitySummary(path: string, summary: CapacitySummary): void {
  writeFileAtomic(path, `${JSON.stringify(capacitySummarySchema.parse(summary), null, 2)}\n`);
}

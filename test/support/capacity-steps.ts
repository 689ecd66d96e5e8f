/**
 * Capacity steps as result files, built in memory: reads whose intended latency is drawn around
 * a value, at a target rate, carrying the properties a capacity step records.
 */
import { Measurements } from '../../src/measure/measurements.ts';
import { CAPACITY } from '../../src/report/capacity-curves.ts';
import { buildResult } from '../../src/results/build.ts';
import type { Repetition, Result } from '../../src/results/schema.ts';
import { workloadFromText } from '../../src/workload/properties.ts';
import { Random } from '../../src/workload/random.ts';

const storeInfo = {
  name: 'basic',
  url: 'basic://',
  server: 'none',
  serverVersion: '0',
  driver: 'none',
  localTarget: false,
};

/** A step's result: `count` reads whose intended latency is drawn around `latencyUs`, `failed` of them failed. */
export function stepResult(
  target: number,
  step: number,
  latencyUs: number,
  count: number,
  failed = 0,
  repetition?: Repetition,
): Result {
  const m = new Measurements(true, true);
  const random = new Random(step);
  for (let i = 0; i < count; i++) {
    const us = latencyUs * (0.5 + random.nextDouble());
    m.measure('READ', i < failed ? 'TIMEOUT' : 'OK', 0, us / 2000, us / 1000);
    m.completeOperation(us / 1000, i < failed);
  }
  const p = workloadFromText(`target=${target}`, 'test');
  const end = new Date('2026-01-01T00:01:00Z');
  const r = buildResult(
    {
      phase: 'run',
      measurements: m,
      startedAt: new Date(end.getTime() - 10_000),
      endedAt: end,
      runtimeMs: (count / target) * 1000,
      timeSeries: [],
      cpu: { userMs: 1, systemMs: 1 },
      recordsLoaded: 0,
      notes: [],
    },
    { kind: 'ycsb', mode: 'direct', workloadName: 'workloada', properties: p, overrides: [], store: storeInfo },
  );
  Object.assign(r.workload.properties, {
    [CAPACITY.search]: 's',
    [CAPACITY.step]: step,
    [CAPACITY.slo]: 'p99<=5ms',
    [CAPACITY.errorBudget]: 0.001,
  });
  if (repetition) r.repetition = repetition;
  return r;
}

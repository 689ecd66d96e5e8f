/**
 * One YCSB workload on an open store, checked as the cluster tests check it: a fresh load with
 * no errors, a run whose every call was OK and every read and scan verified, and every loaded
 * record read back intact. Returns the run's result for the caller's own checks.
 */
import assert from 'node:assert/strict';
import { describeStore, type OpenStore } from '../../src/session/store-session.ts';
import { buildResult } from '../../src/results/build.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { runLoadPhase, runTransactionPhase } from '../../src/runner/phases.ts';
import { CoreWorkload } from '../../src/workload/core-workload.ts';
import { Random } from '../../src/workload/random.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';

/** Every call of every operation OK, and every read and scan verified. */
export function assertAllVerified(result: Result): void {
  for (const op of result.operations) {
    for (const [status, count] of Object.entries(op.returns ?? {})) {
      if (status !== 'OK') assert.fail(`${op.name} Return=${status} ${count}: ${(op.errorSamples ?? []).join('; ')}`);
    }
  }
  const verify = result.operations.find((o) => o.name === 'VERIFY' || o.name.endsWith('-VERIFY'));
  if (verify) assert.deepEqual(Object.keys(verify.returns ?? {}), ['OK']);
}

export async function runVerifiedWorkload(
  open: OpenStore,
  workload: string,
  overrides: readonly string[],
): Promise<Result> {
  const { properties, name } = loadWorkload([workload], [...overrides]);
  const core = new CoreWorkload(properties, new Random(properties.seed));
  const schema = { table: core.table, fieldNames: core.fieldNames };
  await open.store.drop(schema);
  await open.store.prepare(schema);
  const phase = { store: open.store, workload: core, properties, status: false, label: name };
  const load = await runLoadPhase(phase);
  assert.equal(load.measurements.totalOf('ERROR'), 0, `${workload}: load errors`);
  const outcome = await runTransactionPhase(phase);
  const result = resultSchema.parse(
    buildResult(outcome, {
      kind: 'ycsb',
      mode: 'direct',
      workloadName: name,
      properties,
      overrides: [...overrides],
      store: await describeStore(open),
    }),
  );
  assertAllVerified(result);
  const keys = new CoreWorkload(properties, new Random(properties.seed));
  for (let i = 0; i < properties.recordcount; i++) {
    const key = keys.nextLoadKey();
    const record = await open.store.read(core.table, key, null);
    assert.ok(record && core.verify(key, record), `${workload}: record ${key} is there and intact`);
  }
  return result;
}

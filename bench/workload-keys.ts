/**
 * The keys a workload's pass reads in a round, in the order docbench issues them: the same
 * workload, drawn with the same calls in the same order, so a bare loop beside it asks the server
 * for the same records in the same order (harness-overhead.ts says why that matters).
 */
import { CoreWorkload } from '../src/workload/core-workload.ts';
import type { WorkloadProperties } from '../src/workload/properties.ts';
import { Random } from '../src/workload/random.ts';

export function readKeys(properties: WorkloadProperties, round: number): string[] {
  const workload = new CoreWorkload(properties, new Random(round));
  return Array.from({ length: properties.operationcount }, () => {
    workload.nextOperation();
    const key = workload.nextTransactionKey();
    workload.readFields();
    return key;
  });
}

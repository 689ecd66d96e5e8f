import { WorkloadError } from '../../src/workload/properties.ts';

/** A scenario's settings parser names keys as `-p key`; served, they are given as `-p <scenario>.key`: its errors say so. */
export function prefixed<T>(scenario: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof WorkloadError) throw new WorkloadError(error.message.replace(/^-p /, `-p ${scenario}.`));
    throw error;
  }
}

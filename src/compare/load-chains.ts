/**
 * Which of a comparison's workloads can share one load. YCSB's own documentation runs its core
 * workloads in this order on one load: load, then A, B, C, F, D; then the data is deleted and
 * loaded again for E. Workloads that only read and update (A, B, C, F and docbench's G, H) leave
 * the table as they found it (same keys, values of the same shape), so they run one after the
 * other on one load. A workload that inserts (D, E) leaves keys behind that the next one's
 * inserts would collide with (every run's inserts start at `recordcount`): the first of them
 * closes the chain, and every further one gets a fresh load of its own.
 *
 * Workloads share a load only when the load would write the same records (the properties
 * below, and the store settings, which can shape the table). With the failover check on, each
 * workload gets its own load: the check counts every write since the load.
 */
import type { WorkloadProperties } from '../workload/properties.ts';

/** One load and the runs that follow it, in order. */
export interface LoadChain<W> {
  /** The workload whose properties the load is made with (the chain's first). */
  load: W;
  runs: W[];
}

/** What a load writes: records with these keys, fields and values, in a table made with these settings. */
const LOAD_SHAPE = [
  'table',
  'recordcount',
  'insertstart',
  'insertcount',
  'fieldcount',
  'fieldlength',
  'minfieldlength',
  'fieldlengthdistribution',
  'fieldnameprefix',
  'insertorder',
  'zeropadding',
  'dataintegrity',
] as const satisfies readonly (keyof WorkloadProperties)[];

function loadShape(p: WorkloadProperties): string {
  return JSON.stringify([LOAD_SHAPE.map((key) => p[key]), Object.entries(p.passthrough).sort()]);
}

/** True when the workload changes the table's set of keys. */
function inserts(p: WorkloadProperties): boolean {
  return p.insertproportion > 0;
}

export function loadChains<W>(workloads: readonly W[], propertiesOf: (w: W) => WorkloadProperties): LoadChain<W>[] {
  const chains: LoadChain<W>[] = [];
  // The open chain of each load shape: reads and updates join it; the first insert closes it.
  const open = new Map<string, LoadChain<W>>();
  for (const w of workloads) {
    const p = propertiesOf(w);
    if (p.failovercheck) {
      chains.push({ load: w, runs: [w] });
      continue;
    }
    const shape = loadShape(p);
    let chain = open.get(shape);
    if (chain === undefined) {
      chain = { load: w, runs: [] };
      chains.push(chain);
      open.set(shape, chain);
    }
    if (!inserts(p)) {
      // Reads and updates go before the chain's insert, wherever they were listed.
      const last = chain.runs.at(-1);
      if (last !== undefined && inserts(propertiesOf(last))) chain.runs.splice(chain.runs.length - 1, 0, w);
      else chain.runs.push(w);
    } else if (chain.runs.some((r) => inserts(propertiesOf(r)))) {
      chains.push({ load: w, runs: [w] });
    } else {
      chain.runs.push(w);
    }
  }
  return chains;
}

/**
 * YCSB operations as the requests that carry them, decided by CoreWorkload: shared by the k6
 * scripts (a VU deciding its own operations) and the service's plan route (deciding them in
 * blocks for the VUs). Pure: no Node API, so k6 imports it as it is.
 *
 * Why the service decides when it can: k6 runs JavaScript in an interpreter that boxes every
 * integer, and CoreWorkload's decisions (sfc32 draws, a zipfian rank, FNV-64 hashes of the key
 * number and the key name) cost a k6 VU more CPU than the HTTP request they decide, so a VU
 * drawing its own decisions made the load generator the limit of an end-to-end run. Node
 * draws a block of a thousand in about a millisecond. A block is drawn by a fresh CoreWorkload
 * on a random stream of its own (as the e-commerce scripts draw their parameter blocks): the
 * same distributions as a direct run, not the same sequence (which no multi-VU run has anyway).
 *
 * That is exact only when an operation does not depend on the operations before it in the same
 * stream: no inserts (each moves the key space that reads choose from, and must be acknowledged
 * by the VU that made it) and no `sequential` key order (a counter). Such workloads (D, E, or
 * any with inserts) keep each VU deciding its own operations (`plannable`).
 */
import type { CoreWorkload, OperationType } from '../workload/core-workload.ts';
import type { WorkloadProperties } from '../workload/properties.ts';

/** The operations a plan can hold, one letter each. */
export const PLAN_LETTERS = { READ: 'R', UPDATE: 'U', SCAN: 'S', 'READ-MODIFY-WRITE': 'M' } as const;
export type PlannedOperation = keyof typeof PLAN_LETTERS;

/** A block of operations, as columns. */
export interface YcsbPlan {
  /** One letter per operation (PLAN_LETTERS). */
  ops: string;
  /** Each operation's key (a scan's start key): `user` and digits, path-safe as it is. */
  keys: string[];
  /** What follows a read's key (`?fields=field3`) or a scan's start (`&count=7&fields=…`); '' for none. */
  queries: string[];
  /** An update's JSON body (a read-modify-write's update too); '' for none. */
  bodies: string[];
}

/**
 * A plan on the wire: lines of text, the letters first, then the keys, the queries and the
 * bodies, one per operation each. Not JSON, because of what parsing costs a k6 VU: its JSON
 * parser cost more per operation than the rest of the operation's script, and one native split
 * of lines a fraction of that (docs/harness-benchmarks.md). No part of a line can hold a line break (keys and
 * query strings are plain ASCII, bodies are JSON, which escapes them).
 */
export function planText(plan: YcsbPlan): string {
  return [plan.ops, ...plan.keys, ...plan.queries, ...plan.bodies].join('\n');
}

/** The lines of a plan's text, and where each column starts in them. */
export function planLines(text: string): { lines: string[]; count: number } {
  const lines = text.split('\n');
  return { lines, count: lines[0]!.length };
}

/** Most operations one plan request may ask for. */
export const MAX_PLAN_BLOCK = 10_000;

/** Why the service cannot decide this workload's operations in blocks, or null when it can. */
export function unplannable(
  p: Pick<WorkloadProperties, 'insertproportion' | 'requestdistribution' | 'scankeysonly' | 'scanproportion'>,
): string | null {
  if (p.scankeysonly && p.scanproportion > 0)
    return "its scans return keys only (scankeysonly=true), which the service's scan route does not offer";
  if (p.insertproportion > 0)
    return 'it inserts (each insert moves the key space reads choose from, and is acknowledged by the VU that made it)';
  if (p.requestdistribution === 'sequential') return 'its keys come in sequence (a counter through the whole run)';
  return null;
}

/** The query string and body of one operation on `key`, drawing what CoreWorkload draws, in its order. */
export function requestParts(
  core: CoreWorkload,
  op: Exclude<OperationType, 'INSERT'>,
  key: string,
): { query: string; body: string } {
  switch (op) {
    case 'READ':
      return { query: fieldsQuery('?', core.readFields()), body: '' };
    case 'UPDATE':
      return { query: '', body: JSON.stringify(core.buildUpdate(key)) };
    case 'SCAN': {
      const count = core.nextScanLength();
      return { query: `&count=${count}${fieldsQuery('&', core.readFields())}`, body: '' };
    }
    case 'READ-MODIFY-WRITE': {
      const query = fieldsQuery('?', core.readFields());
      return { query, body: JSON.stringify(core.buildUpdate(key)) };
    }
  }
}

function fieldsQuery(separator: '?' | '&', fields: readonly string[] | null): string {
  return fields === null ? '' : `${separator}fields=${fields.join(',')}`;
}

/** `count` operations of a workload that `unplannable` accepts, drawn by `core` (a fresh one per block). */
export function drawPlan(core: CoreWorkload, count: number): YcsbPlan {
  const plan: YcsbPlan = { ops: '', keys: [], queries: [], bodies: [] };
  const letters: string[] = [];
  for (let i = 0; i < count; i++) {
    const op = core.nextOperation();
    if (op === 'INSERT') throw new Error('drawPlan: the workload inserts, so its operations cannot be planned');
    const key = core.nextTransactionKey();
    const { query, body } = requestParts(core, op, key);
    letters.push(PLAN_LETTERS[op]);
    plan.keys.push(key);
    plan.queries.push(query);
    plan.bodies.push(body);
  }
  plan.ops = letters.join('');
  return plan;
}

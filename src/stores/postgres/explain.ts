/**
 * PostgreSQL's own account of how it ran a query: `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON)` of the
 * same statement with the same parameters (it runs the statement), read into the store-neutral
 * plan (query-plan.ts).
 *
 *   access     scan when any node read a whole table (Seq Scan); else index when an index served
 *              it (Index Scan, Index Only Scan, Bitmap Index Scan), key when the only index is a
 *              primary key; unknown when no node touched a table
 *   used       the indexes' names
 *   keys       index entries read: an index scan's rows (with those its filter removed), a bitmap
 *              index scan's row ids; PostgreSQL counts no other entries it walked
 *   documents  table rows read: a sequential or index scan's rows with those its filter removed,
 *              a bitmap heap scan's rows with those its recheck removed, an index-only scan's heap
 *              fetches
 *   warnings   a sort or hash that spilled to disk, a bitmap that went lossy
 *
 * Every figure is the node's per-loop count times its loops (a nested loop's inner side runs once
 * per outer row).
 */
import pg, { type QueryConfig, type QueryResult, type QueryResultRow } from 'pg';
import { shorten, type PlanEvidence } from '../query-plan.ts';
import type { PostgresHandle } from './handle.ts';

const { escapeLiteral } = pg;

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

interface Walk {
  scans: number;
  indexes: Set<string>;
  primaryOnly: boolean;
  keys: number | undefined;
  docs: number | undefined;
  warnings: Set<string>;
}

const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const add = (a: number | undefined, b: number) => (a ?? 0) + b;

function visit(node: PlanNode, into: Walk): void {
  const type = String(node['Node Type']);
  const loops = Math.max(1, num(node['Actual Loops']));
  const rows = num(node['Actual Rows']) * loops;
  const filtered = num(node['Rows Removed by Filter']) * loops;
  const index = typeof node['Index Name'] === 'string' ? node['Index Name'] : undefined;
  if (index !== undefined) {
    into.indexes.add(index);
    if (!index.endsWith('_pkey')) into.primaryOnly = false;
  }
  switch (type) {
    case 'Seq Scan':
      into.scans++;
      into.docs = add(into.docs, rows + filtered);
      break;
    case 'Index Scan':
      into.keys = add(into.keys, rows + filtered);
      into.docs = add(into.docs, rows + filtered);
      break;
    case 'Index Only Scan':
      into.keys = add(into.keys, rows + filtered);
      into.docs = add(into.docs, num(node['Heap Fetches']) * loops);
      break;
    case 'Bitmap Index Scan':
      into.keys = add(into.keys, rows);
      break;
    case 'Bitmap Heap Scan':
      into.docs = add(into.docs, rows + filtered + num(node['Rows Removed by Index Recheck']) * loops);
      if (num(node['Lossy Heap Blocks']) > 0) into.warnings.add('the bitmap went lossy (work_mem): pages rechecked');
      break;
  }
  if (node['Sort Space Type'] === 'Disk')
    into.warnings.add(`the sort spilled to disk (${String(node['Sort Method'])})`);
  if (num(node['Hash Batches']) > 1) into.warnings.add('the hash spilled to disk (several batches)');
  for (const child of node.Plans ?? []) visit(child, into);
}

/** An EXPLAIN (ANALYZE, FORMAT JSON) reply as a plan; `returned` is the answer's size where the caller counts it otherwise. */
export function postgresPlan(explained: unknown, returned?: number): PlanEvidence {
  const top = (Array.isArray(explained) ? explained[0] : explained) as { Plan?: PlanNode } | undefined;
  const plan = top?.Plan;
  const found: Walk = {
    scans: 0,
    indexes: new Set(),
    primaryOnly: true,
    keys: undefined,
    docs: undefined,
    warnings: new Set(),
  };
  if (plan !== undefined) visit(plan, found);
  const access = found.scans > 0 ? 'scan' : found.indexes.size === 0 ? 'unknown' : found.primaryOnly ? 'key' : 'index';
  const answer = returned ?? (plan !== undefined ? num(plan['Actual Rows']) : undefined);
  return {
    access,
    used: [...found.indexes],
    ...(found.keys !== undefined ? { keysExamined: found.keys } : {}),
    ...(found.docs !== undefined ? { documentsExamined: found.docs } : {}),
    ...(answer !== undefined ? { returned: answer } : {}),
    warnings: [...found.warnings],
    source:
      "PostgreSQL EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON): the plan's scans and indexes, their actual rows and rows removed",
    raw: shorten(JSON.stringify(explained)),
  };
}

/** Run a statement under EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) with its parameters, and read the plan. */
export async function explainStatement(
  handle: PostgresHandle,
  statement: string | QueryConfig,
  values?: unknown[],
  returned?: number,
): Promise<PlanEvidence> {
  const text = typeof statement === 'string' ? statement : statement.text;
  const params = typeof statement === 'string' ? values : (statement.values ?? values);
  const rows = await handle.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
    params as unknown[] | undefined,
  );
  return postgresPlan(rows[0]?.['QUERY PLAN'], returned);
}

/**
 * A statement run with the planner told to prefer indexes (`SET LOCAL enable_seqscan = off`, in
 * the same implicit transaction: one round trip). On a small table the planner rightly reads the
 * whole table rather than an index (JSONB documents live in TOAST, so the table itself looks
 * tiny); a scenario run with indexes measures the indexed path, the one a large dataset gets. The
 * setting needs the simple protocol, which takes no parameters: each value is written as a
 * literal (node-postgres's escapeLiteral; numbers as numbers).
 */
export function preferIndexes(text: string, values: readonly unknown[] = [], explain = false): string {
  const inlined = text.replace(/\$(\d+)/g, (_, n: string) => inline(values[Number(n) - 1]));
  return `SET LOCAL enable_seqscan = off; ${explain ? 'EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ' : ''}${inlined}`;
}

function inline(value: unknown): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string') return escapeLiteral(value);
  throw new Error(`preferIndexes: cannot write ${typeof value} as a literal`);
}

/** The rows of the last statement of a simple-protocol query string (the SET's result comes first). */
export async function queryPreferringIndexes<R extends QueryResultRow>(
  handle: PostgresHandle,
  text: string,
  values?: readonly unknown[],
): Promise<R[]> {
  const results = (await handle.result(preferIndexes(text, values))) as unknown as QueryResult<R>[];
  return results.at(-1)!.rows;
}

/** Its plan, taken under the same setting. */
export async function explainPreferringIndexes(
  handle: PostgresHandle,
  text: string,
  values?: readonly unknown[],
  returned?: number,
): Promise<PlanEvidence> {
  const results = (await handle.result(preferIndexes(text, values, true))) as unknown as QueryResult<{
    'QUERY PLAN': unknown;
  }>[];
  return postgresPlan(results.at(-1)!.rows[0]?.['QUERY PLAN'], returned);
}

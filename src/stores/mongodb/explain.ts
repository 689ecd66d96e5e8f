/**
 * MongoDB's own account of how it ran a query: `explain("executionStats")` of a find or an
 * aggregation, read into the store-neutral plan (query-plan.ts). The winning plan's stages say
 * whether a collection was scanned (COLLSCAN; a $lookup's `collectionScans`; an EQ_LOOKUP joined
 * without an index) or which indexes served it (IXSCAN's `indexName`, a $lookup's
 * `indexesUsed`); executionStats say how many keys and documents it examined. Rejected plans are
 * not what ran and are skipped.
 *
 * FerretDB (a MongoDB-compatible server: compatible.ts) answers explain with the PostgreSQL plan
 * of the SQL it runs (`queryPlanner.Plan`, EXPLAIN's JSON without ANALYZE): its nodes say the
 * same things (`Seq Scan` reads every row; an index scan's `Index Name`), and it has no counts of
 * keys or documents examined, so none is given.
 */
import type { Document } from 'mongodb';
import { shorten, type PlanEvidence } from '../query-plan.ts';

/** Parts of an explain reply that are not about the plan (server, cluster time, the command echoed). */
const NOT_PLAN = new Set([
  'serverInfo',
  'serverParameters',
  'command',
  '$clusterTime',
  'operationTime',
  'ok',
  'rejectedPlans',
  'allPlansExecution',
  'slotBasedPlan',
]);

/** Stages that fetch by `_id` without searching. */
const KEY_STAGES = new Set(['IDHACK', 'EXPRESS_IXSCAN', 'EXPRESS_CLUSTERED_IXSCAN']);

/** Joins of an EQ_LOOKUP that read the whole foreign collection. */
const SCANNING_JOINS = new Set(['NestedLoopJoin', 'HashJoin']);

interface Walk {
  stages: Set<string>;
  indexes: Set<string>;
  scans: number;
  keys: number[];
  docs: number[];
}

function walk(node: unknown, into: Walk): void {
  if (Array.isArray(node)) {
    for (const item of node) walk(item, into);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const doc = node as Document;
  if (typeof doc.stage === 'string') {
    into.stages.add(doc.stage);
    if (doc.stage === 'COLLSCAN') into.scans++;
    if (doc.stage === 'EQ_LOOKUP' && SCANNING_JOINS.has(String(doc.strategy))) into.scans++;
  }
  if (typeof doc.indexName === 'string') into.indexes.add(doc.indexName);
  // PostgreSQL's plan nodes, as FerretDB's explain gives them.
  if (doc['Node Type'] === 'Seq Scan') into.scans++;
  if (typeof doc['Index Name'] === 'string') into.indexes.add(doc['Index Name']);
  if (Array.isArray(doc.indexesUsed)) for (const name of doc.indexesUsed) into.indexes.add(String(name));
  if (typeof doc.collectionScans === 'number') into.scans += doc.collectionScans;
  if (typeof doc.totalKeysExamined === 'number') into.keys.push(doc.totalKeysExamined);
  if (typeof doc.totalDocsExamined === 'number') into.docs.push(doc.totalDocsExamined);
  for (const [key, value] of Object.entries(doc)) if (!NOT_PLAN.has(key)) walk(value, into);
}

const sum = (values: readonly number[]) => (values.length === 0 ? undefined : values.reduce((a, b) => a + b, 0));

/** An explain reply as a plan; `returned` is the query's answer size where the reply has none (aggregations). */
export function mongoPlan(explain: Document, returned?: number): PlanEvidence {
  const found: Walk = { stages: new Set(), indexes: new Set(), scans: 0, keys: [], docs: [] };
  walk(explain, found);
  const access =
    found.scans > 0
      ? 'scan'
      : found.indexes.size > 0
        ? 'index'
        : [...found.stages].some((s) => KEY_STAGES.has(s))
          ? 'key'
          : 'unknown';
  const keysExamined = sum(found.keys);
  const documentsExamined = sum(found.docs);
  const nReturned = (explain.executionStats as Document | undefined)?.nReturned;
  const answer = returned ?? (typeof nReturned === 'number' ? nReturned : undefined);
  return {
    access,
    used: [...found.indexes],
    ...(keysExamined !== undefined ? { keysExamined } : {}),
    ...(documentsExamined !== undefined ? { documentsExamined } : {}),
    ...(answer !== undefined ? { returned: answer } : {}),
    warnings: [],
    source: isPostgresPlan(explain)
      ? "FerretDB's explain: the PostgreSQL plan of the SQL it runs (estimated; no keys or documents examined)"
      : 'MongoDB explain("executionStats"): the winning plan\'s stages and its keys and documents examined',
    // The reply without what is not the plan that ran (at any depth: rejected plans sit inside queryPlanner).
    raw: shorten(JSON.stringify(explain, (key, value: unknown) => (NOT_PLAN.has(key) ? undefined : value))),
  };
}

/** FerretDB's explain: PostgreSQL's plan under `queryPlanner.Plan`. */
function isPostgresPlan(explain: Document): boolean {
  const plan = (explain.queryPlanner as Document | undefined)?.Plan as Document | undefined;
  return typeof plan?.['Node Type'] === 'string';
}

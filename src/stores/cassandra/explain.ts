/**
 * Cassandra's own account of how it ran a statement: the statement executed once with tracing
 * on, its trace events read back (`system_traces`, through the driver's `getTrace`) and turned
 * into the store-neutral plan (query-plan.ts). CQL has no EXPLAIN; the trace is the evidence:
 *   "Executing read on ks.t using indexes a,b"           SAI / secondary indexes used
 *   "No applicable indexes found", "Executing seq scan"  every row read (ALLOW FILTERING)
 *   "Executing single-partition query on t"               a partition read by key
 *   "post-filtered N rows", "Read N live rows"           rows examined
 * Only the statement's first page is traced (the driver fetches further pages as new requests).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type cassandra from 'cassandra-driver';
import { collapseLines, shorten, type PlanAccess, type PlanEvidence } from '../query-plan.ts';

/** The trace events' activities, as a plan. `rows` is what the traced request returned. */
export function tracePlan(activities: readonly string[], rows: number): PlanEvidence {
  const indexes = new Set<string>();
  const partitions = new Set<string>();
  let seqScan = false;
  let postFiltered: number | undefined;
  let liveRows = 0;
  let sawLiveRows = false;
  for (const activity of activities) {
    const usingIndexes = /using index(?:es)? ([\w,.]+)/.exec(activity);
    if (usingIndexes) for (const name of usingIndexes[1]!.split(',')) indexes.add(name);
    if (/seq scan|No applicable indexes found/i.test(activity)) seqScan = true;
    const partition = /Executing single-partition query on (\w+)/.exec(activity);
    if (partition) partitions.add(partition[1]!);
    const filtered = /post-filtered (\d+) rows/.exec(activity);
    if (filtered) postFiltered = (postFiltered ?? 0) + Number(filtered[1]);
    const live = /Read (\d+) live rows/.exec(activity);
    if (live) {
      liveRows += Number(live[1]);
      sawLiveRows = true;
    }
  }
  // An index query reads partitions too: the index decides; rows read without any index and
  // without a range scan were found by their partition key.
  const access: PlanAccess = indexes.size > 0 ? 'index' : seqScan ? 'scan' : partitions.size > 0 ? 'key' : 'unknown';
  const examined = postFiltered ?? (sawLiveRows ? liveRows : undefined);
  return {
    access,
    used: indexes.size > 0 ? [...indexes] : access === 'key' ? [...partitions].map((t) => `${t} (partition key)`) : [],
    ...(examined !== undefined ? { documentsExamined: examined } : {}),
    returned: rows,
    warnings: [],
    source: "Cassandra query tracing (system_traces events of the statement's first page)",
    raw: shorten(collapseLines(activities)),
  };
}

/** Re-reads of a trace whose last events (the rows read) have not reached system_traces yet. */
const TRACE_READS = 40;
const TRACE_READ_INTERVAL_MS = 250;
const FINAL_EVENT = /Read \d+ live rows|post-filtered \d+ rows/;

/**
 * The driver's read of a trace, or null while the server has not finished writing the trace's
 * session row: the driver gives up on that after a few short tries, which a loaded server can
 * outlast, so the caller's own deadline decides.
 */
async function traceOf(
  client: cassandra.Client,
  traceId: cassandra.types.Uuid,
): Promise<{ events: { activity: unknown }[] } | null> {
  try {
    return await client.metadata.getTrace(traceId);
  } catch (error) {
    if (error instanceof Error && /could not fully retrieved/.test(error.message)) return null;
    throw error;
  }
}

/** Execute `cql` once with tracing and read its trace; `fetchSize` bounds the traced page. */
export async function traceStatement(
  client: cassandra.Client,
  cql: string,
  params: unknown[],
  fetchSize: number,
): Promise<PlanEvidence> {
  const result = await client.execute(cql, params, { prepare: true, traceQuery: true, fetchSize });
  // Trace events are written asynchronously: the session can be complete before its last events are.
  let activities: string[] = [];
  let complete = false;
  const started = performance.now();
  for (let read = 1; read <= TRACE_READS && !complete; read++) {
    if (read > 1) await sleep(TRACE_READ_INTERVAL_MS);
    const trace = await traceOf(client, result.info.traceId);
    if (trace === null) continue;
    activities = trace.events.map((e) => String(e.activity));
    complete = activities.some((a) => FINAL_EVENT.test(a));
  }
  const plan = tracePlan(activities, result.rowLength);
  if (!complete)
    plan.warnings.push(
      `trace incomplete: the server had not written its last events (the rows read) after ${Math.round((performance.now() - started) / 1000)} s`,
    );
  return plan;
}

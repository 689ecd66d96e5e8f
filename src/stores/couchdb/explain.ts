/**
 * CouchDB's own account of how it ran a query, read into the store-neutral plan (query-plan.ts):
 *   Mango  POST /{db}/_explain names the index `_find` picks (`_all_docs`, a "special" index,
 *          means every document is read) and the key range; the same `_find` with
 *          `execution_stats: true` says how many keys and documents it examined and returned,
 *          and its `warning` what CouchDB thinks of that ("No matching index found", "The number
 *          of documents examined is high in proportion to the number of results returned").
 *   views  a view is an index CouchDB keeps: reading it examines the rows it returns.
 */
import type nano from 'nano';
import { shorten, type PlanEvidence } from '../query-plan.ts';

/** The index part of an `_explain` answer. */
interface ExplainedIndex {
  ddoc?: string | null;
  name?: string;
  type?: string;
  def?: { fields?: Record<string, string>[] };
}

/** `execution_stats` of a `_find` answer (CouchDB 2.1+). */
interface ExecutionStats {
  total_keys_examined?: number;
  total_docs_examined?: number;
  total_quorum_docs_examined?: number;
  results_returned?: number;
  execution_time_ms?: number;
}

/** A Mango index as the plan names it: `_design/ddoc/name [field, …]`. */
function indexLabel(index: ExplainedIndex): string {
  const fields = (index.def?.fields ?? []).map((f) => Object.keys(f)[0]).filter(Boolean);
  return `${index.ddoc ?? ''}/${index.name ?? '?'}${fields.length > 0 ? ` [${fields.join(', ')}]` : ''}`;
}

/** `_explain` for a Mango query, then the query itself with execution statistics. */
export async function explainMango(
  server: nano.ServerScope,
  database: string,
  query: nano.MangoQuery,
): Promise<PlanEvidence> {
  const explained = (await server.relax({ db: database, path: '_explain', method: 'POST', body: query })) as {
    index?: ExplainedIndex;
  } & Record<string, unknown>;
  const answer = (await server
    .use(database)
    .find({ ...query, execution_stats: true } as nano.MangoQuery)) as nano.MangoResponse<unknown> & {
    execution_stats?: ExecutionStats;
    warning?: string;
  };
  const index = explained.index ?? {};
  const allDocs = index.type === 'special' || index.name === '_all_docs';
  const stats = answer.execution_stats;
  const docs = stats ? (stats.total_docs_examined ?? 0) + (stats.total_quorum_docs_examined ?? 0) : undefined;
  const { dbname: _db, ...plan } = explained;
  return {
    access: allDocs ? 'scan' : 'index',
    used: allDocs ? [] : [indexLabel(index)],
    ...(stats?.total_keys_examined !== undefined ? { keysExamined: stats.total_keys_examined } : {}),
    ...(docs !== undefined ? { documentsExamined: docs } : {}),
    returned: stats?.results_returned ?? answer.docs.length,
    warnings: (answer.warning ?? '')
      .split('\n')
      .map((w) => w.trim())
      .filter(Boolean),
    source: stats
      ? 'CouchDB POST /{db}/_explain and _find execution_stats (and its warning)'
      : 'CouchDB POST /{db}/_explain and _find (this server sends no execution_stats)',
    raw: shorten(JSON.stringify({ ...plan, ...(stats ? { execution_stats: stats } : {}) })),
  };
}

/** A view read (design document `design`, view `view`) with the given parameters. */
export async function explainView<D>(
  db: nano.DocumentScope<D>,
  design: string,
  view: string,
  params: nano.DocumentViewParams,
): Promise<PlanEvidence> {
  const answer = await db.view(design, view, params);
  const rows = answer.rows.length;
  const docs = params.include_docs ? answer.rows.filter((r) => r.doc).length : undefined;
  return {
    access: 'index',
    used: [`_design/${design}/_view/${view}`],
    keysExamined: rows,
    ...(docs !== undefined ? { documentsExamined: docs } : {}),
    returned: rows,
    warnings: [],
    source: 'CouchDB view read: a view is an index CouchDB keeps up to date, read by key range',
    raw: shorten(
      JSON.stringify({
        view: `_design/${design}/_view/${view}`,
        params,
        total_rows: answer.total_rows,
        offset: answer.offset,
        rows,
      }),
    ),
  };
}

/** A read of documents by id (`_all_docs` with keys): a key lookup per id. */
export async function explainKeys<D>(db: nano.DocumentScope<D>, keys: readonly string[]): Promise<PlanEvidence> {
  const answer = await db.fetch({ keys: [...keys] });
  const found = answer.rows.filter((r) => 'doc' in r && r.doc).length;
  return {
    access: 'key',
    used: ['_all_docs (by id)'],
    keysExamined: keys.length,
    documentsExamined: found,
    returned: found,
    warnings: [],
    source: 'CouchDB POST /{db}/_all_docs {keys} include_docs=true: one lookup per id',
    raw: JSON.stringify({ keys: keys.length, found }),
  };
}

/**
 * A scenario file on HBase 2 through its REST gateway (docbench's client, src/stores/hbase/), as
 * an HBase application keeps it: HBase finds rows by key and key range only, and has no
 * secondary index, aggregate or JOIN, so for each query the writer keeps the rows that answer it
 * (key-shape.ts says which queries have such rows; hbase-index.ts and hbase-keys.ts say how).
 *
 *   documents  `<scenario>_docs`, family `d`: row key `<collection>:<_id>`, one column per
 *              top-level field holding its JSON text (`_id` too): a read asks only for the
 *              columns the query projects and checks, an update puts only the fields it sets,
 *              a field a document lacks has no column. Also the row `manifest`.
 *   find       a scan of the query's index rows in `<scenario>_index` (family `i`): its
 *              partition's prefix, narrowed by the range, `limit` skip + limit (HBase has no
 *              OFFSET: the first `skip` rows are passed over), then a multi-get of the documents
 *              (the columns read); a join is a multi-get of the joined documents
 *   count      a key-only scan of the same rows (KeyOnlyFilter, FirstKeyOnlyFilter), counted (with
 *              a range off the order: a scan of the covered column with its filter)
 *   group      a scan of the partition's counter rows: one per group value, a count and a sum
 *              kept by HBase's atomic Increment
 *   plans      each scan's range, rows scanned (a key-only scan of it) against rows returned
 *
 * HBase has no multi-row transaction, so a write orders its steps to keep every index row
 * complete: a document's new index rows are written before the document, its old ones deleted
 * after it (a delete: the document first). An index row may then name a document that does not
 * (yet, or any more) meet it, never the reverse; a find multi-gets the documents anyway and keeps
 * an index row only when its document still gives that row key, scanning on if that left the
 * page short. A count and the counters are not checked that way: they are right whenever no
 * write to the collection is half done, which a scenario file's mix guarantees (it may not write
 * what its queries read). Counters are changed after the document.
 *
 * The file's `indexes` are MongoDB's idea: the index rows come from the queries. Several sort
 * keys, text sort keys and mixed directions are row-key design (hbase-keys.ts); a range on
 * another field than the order's is a filter in the region server on a column the index row
 * covers (hbase-index.ts; checked like a count: a covered value changed by a write in flight is
 * the one thing a find's document check cannot make up for). A query without such rows (a
 * parameter under $or, $ne, $in, $exists or $elemMatch, a range on an array's elements, a range
 * before a group) is UNSUPPORTED with the reason.
 */
import type { Row } from '../../../src/stores/hbase/cellset.ts';
import type { HbaseHandle, ScanRequest } from '../../../src/stores/hbase/handle.ts';
import { combineEvidence, type PlanEvidence } from '../../../src/stores/query-plan.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import { sumDecimals, type Answer } from '../answers.ts';
import {
  MANIFEST_ID,
  prefixOf,
  refuses,
  runs,
  valueAt,
  type FileDialect,
  type FileDialectContext,
  type FileDialectDefinition,
  type Manifest,
  type Translation,
} from '../dialect.ts';
import type { Doc, Value } from '../generator.ts';
import type { Collection, FindQuery, Query, Scenario } from '../model.ts';
import { project } from '../oracle.ts';
import { readCounters } from './hbase-counters.ts';
import {
  addCounters,
  COUNT_COLUMN,
  coveredFilter,
  ID_COLUMN,
  INDEX_FAMILY,
  indexedOf,
  indexKeys,
  indexRows,
  meetsCovered,
  partitionPrefix,
  rangeOf,
  SUM_COLUMN,
  type CounterDeltas,
  type Indexed,
} from './hbase-index.ts';
import { prefixRange } from './hbase-keys.ts';
import { partitionOf } from './key-shape.ts';

export const dialect: FileDialectDefinition<'hbase'> = {
  store: 'hbase',
  create: (handle, context) => new HbaseFile(handle, context),
};

type Params = Readonly<Record<string, Value>>;
const FAMILY = 'd';
const col = (field: string) => `${FAMILY}:${field}`;
/** Rows per multi-get: their keys travel in the request line. */
const GET_CHUNK = 100;
/** Counter rows incremented at once (one request each: the gateway increments one row per request). */
const INCREMENT_CONCURRENCY = 8;
const KEY_ONLY = 'KeyOnlyFilter() AND FirstKeyOnlyFilter()';

const topLevel = (path: string) => path.split('.')[0]!;
const cellsOf = (doc: Doc) =>
  Object.entries(doc).map(([field, value]) => ({ column: col(field), value: JSON.stringify(value) }));

function docOf(row: Row): Doc {
  const doc: Doc = {};
  for (const cell of row.cells) doc[cell.column.slice(FAMILY.length + 1)] = JSON.parse(cell.value) as Value;
  return doc;
}

class HbaseFile implements FileDialect {
  readonly translations: ReadonlyMap<string, Translation>;
  readonly structures: string;
  private readonly scenario: Scenario;
  private readonly docs: string;
  private readonly index: string;
  private readonly indexed = new Map<string, Indexed>();

  constructor(
    private readonly hbase: HbaseHandle,
    context: FileDialectContext,
  ) {
    this.scenario = context.scenario;
    const prefix = prefixOf(this.scenario);
    this.docs = `${prefix}_docs`;
    this.index = `${prefix}_index`;
    this.translations = new Map([...this.scenario.queries.values()].map((q) => [q.name, this.translate(q)]));
    const kept = [...this.indexed.values()].map(
      ({ query: q }) => `${q.name}/ (${q.kind === 'group' ? 'counter rows' : 'index rows'})`,
    );
    this.structures = `HBase: documents in ${this.docs} (row <collection>:<id>, a column per field); in ${this.index} the rows the writer keeps per query: ${kept.join(', ') || 'none'} (the file's indexes have no HBase counterpart)`;
  }

  private translate(q: Query): Translation {
    const indexed = indexedOf(q);
    if ('refused' in indexed) return refuses(indexed.refused);
    this.indexed.set(q.name, indexed);
    const { shape } = indexed;
    const prefix = `${this.index} ${q.name}/[${shape.partition.map((p) => p.path.path).join(', ')}]`;
    const range = shape.range ? `, the range of ${shape.range.path.path} as a row-key range` : '';
    const covered =
      indexed.covered.length > 0
        ? `, ${indexed.covered.map((c) => c.path.path).join(' and ')} by a SingleColumnValueFilter on the index rows' covered column`
        : '';
    if (q.kind === 'group')
      return runs(`scan of the counter rows ${prefix} (count and sum per ${q.by.path}, incremented by the writer)`);
    if (q.kind === 'count')
      return runs(`${covered ? 'scan' : 'key-only scan'} of the index rows ${prefix}${range}${covered}, counted`);
    const order = shape.order.map((k) => `${k.descending ? '-' : ''}${k.path}`).join(', ');
    return runs(
      `scan of the index rows ${prefix}${range}${covered} in row-key order (${order || '_id'})${q.limit !== undefined ? ` limit ${q.skip + q.limit}` : ''}, multi-get of the documents${q.join ? `, multi-get of the joined ${q.join.from}` : ''}`,
    );
  }

  private docKey(collection: Collection | string, id: string): string {
    return `${typeof collection === 'string' ? collection : collection.name}:${id}`;
  }

  private indexedOf(q: Query): Indexed {
    const t = this.translations.get(q.name)!;
    if (!t.supported) throw new UnsupportedError(q.name, t.reason);
    return this.indexed.get(q.name)!;
  }

  private queriesOf(collection: Collection): Indexed[] {
    return [...this.indexed.values()].filter((i) => i.query.collection === collection.name);
  }

  async drop(): Promise<void> {
    await this.hbase.dropTable(this.docs);
    await this.hbase.dropTable(this.index);
  }

  async prepare(): Promise<void> {
    await this.hbase.ensureTable(this.docs, [FAMILY]);
    await this.hbase.ensureTable(this.index, [INDEX_FAMILY]);
  }

  async insertMany(collection: Collection, docs: readonly Doc[]): Promise<void> {
    const queries = this.queriesOf(collection);
    await this.hbase.put(
      this.index,
      queries.flatMap((i) => docs.flatMap((d) => indexRows(i, d))),
    );
    await this.hbase.put(
      this.docs,
      docs.map((d) => ({ key: this.docKey(collection, String(d._id)), cells: cellsOf(d) })),
    );
    const deltas: CounterDeltas = new Map();
    for (const i of queries) for (const d of docs) addCounters(deltas, i, d, 1);
    await this.increment(deltas);
  }

  /** Apply counter changes: one Increment per row (none for a change that nets to nothing). */
  private async increment(deltas: CounterDeltas): Promise<void> {
    const changes = [...deltas].filter(([, d]) => d.count !== 0 || d.sum !== 0);
    for (let start = 0; start < changes.length; start += INCREMENT_CONCURRENCY) {
      await Promise.all(
        changes.slice(start, start + INCREMENT_CONCURRENCY).map(([key, d]) => {
          const cells = [
            { column: COUNT_COLUMN, value: String(d.count) },
            { column: SUM_COLUMN, value: String(d.sum) },
          ];
          return this.hbase.increment(this.index, key, cells);
        }),
      );
    }
  }

  async buildIndexes(): Promise<string> {
    return `none to build: the writer keeps the rows of ${this.indexed.size} queries in ${this.index} as it writes`;
  }

  /** The columns a find reads of its documents: what it projects and what its index rows are made of (undefined: every column). */
  private columnsOf(q: FindQuery): string[] | undefined {
    if (q.project === undefined) return undefined;
    return [...new Set(['_id', ...[...q.reads].map(topLevel)])].map(col);
  }

  /** The documents of `ids` that exist (only `columns`, when given), by id. */
  private async fetch(
    collection: string,
    ids: readonly string[],
    columns?: readonly string[],
  ): Promise<Map<string, Doc>> {
    const found = new Map<string, Doc>();
    for (let start = 0; start < ids.length; start += GET_CHUNK) {
      const keys = ids.slice(start, start + GET_CHUNK).map((id) => this.docKey(collection, id));
      for (const row of await this.hbase.multiGet(this.docs, keys, columns)) {
        const doc = docOf(row);
        found.set(String(doc._id), doc);
      }
    }
    return found;
  }

  /** The scan of a find's or count's index rows (without its limit); null when the range is empty. */
  private indexScan(q: Query, indexed: Indexed, params: Params): ScanRequest | null {
    const range = rangeOf(indexed, params);
    if (range === null) return null;
    const filter = coveredFilter(indexed, params);
    if (q.kind === 'count')
      return filter === undefined
        ? { ...range, filter: KEY_ONLY }
        : { ...range, columns: indexed.covered.map((c) => c.column), filter };
    // The filter sees only the columns the scan asks for: the covered ones go with the id.
    return {
      ...range,
      columns: [ID_COLUMN, ...indexed.covered.map((c) => c.column)],
      ...(filter !== undefined ? { filter } : {}),
    };
  }

  /** A find's documents in order: index rows scanned, their documents fetched, rows whose document no longer gives that key passed over. */
  private async findDocs(q: FindQuery, indexed: Indexed, params: Params): Promise<Doc[]> {
    const request = this.indexScan(q, indexed, params);
    if (request === null) return [];
    const want = q.limit === undefined ? undefined : q.skip + q.limit;
    const columns = this.columnsOf(q);
    const out: Doc[] = [];
    let startRow = request.startRow!;
    for (;;) {
      const limit = want === undefined ? undefined : want - out.length;
      const rows = await this.hbase.scan(this.index, {
        ...request,
        startRow,
        ...(limit !== undefined ? { limit } : {}),
      });
      const ids = rows.map((r) => r.cells.find((c) => c.column === ID_COLUMN)?.value ?? '');
      const docs = await this.fetch(q.collection, [...new Set(ids)], columns);
      rows.forEach((row, i) => {
        const doc = docs.get(ids[i]!);
        if (doc !== undefined && indexKeys(indexed, doc).includes(row.key) && meetsCovered(indexed, doc, params))
          out.push(doc);
      });
      if (limit === undefined || rows.length < limit || out.length >= want!) break;
      startRow = `${rows.at(-1)!.key}\u0000`;
    }
    return out.slice(q.skip);
  }

  async query(q: Query, params: Params): Promise<Answer> {
    const indexed = this.indexedOf(q);
    if (q.kind === 'group') {
      const prefix = partitionPrefix(q, partitionOf(indexed.shape, params));
      const scale = 10 ** sumDecimals(q);
      const rows = (await readCounters(this.hbase, this.index, prefixRange(prefix))).filter((r) => r.count > 0);
      return {
        kind: 'rows',
        rows: rows.map((r) => ({
          _id: JSON.parse(r.key.slice(prefix.length)) as Value,
          count: r.count,
          ...(q.sum ? { sum: r.sum / scale } : {}),
        })),
      };
    }
    if (q.kind === 'count') {
      const request = this.indexScan(q, indexed, params);
      return { kind: 'count', count: request === null ? 0 : (await this.hbase.scan(this.index, request)).length };
    }
    const docs = await this.findDocs(q, indexed, params);
    let rows = q.project ? project(docs, q.project) : docs;
    if (q.join) {
      const join = q.join;
      const refs = docs.map((d) => valueAt(d, join.on.path));
      const columns = join.project ? [...new Set(['_id', ...join.project.map(topLevel)])].map(col) : undefined;
      const targets = await this.fetch(
        join.from,
        [...new Set(refs.filter((r): r is string => typeof r === 'string'))],
        columns,
      );
      rows = rows.map((row, i) => {
        const target = targets.get(refs[i] as string);
        return target === undefined
          ? row
          : { ...row, [join.as]: join.project ? project([target], join.project)[0]! : target };
      });
    }
    return { kind: 'rows', rows };
  }

  async explain(q: Query, params: Params): Promise<ScenarioPlan> {
    const indexed = this.indexedOf(q);
    const scanned =
      q.kind === 'group'
        ? prefixRange(partitionPrefix(q, partitionOf(indexed.shape, params)))
        : this.indexScan(q, indexed, params);
    const steps: { label: string; plan: PlanEvidence }[] = [];
    if (scanned !== null) {
      const request: ScanRequest = {
        ...scanned,
        ...(q.kind === 'find' && q.limit !== undefined ? { limit: q.skip + q.limit } : {}),
      };
      const scan = await this.hbase.explainScan(this.index, request);
      steps.push({
        label: `${q.kind === 'group' ? 'counter' : 'index'} rows ${q.name}/`,
        plan: {
          ...scan,
          access: 'index',
          used: [`${this.hbase.qualified(this.index)} ${q.name}/…`],
          keysExamined: scan.rowsScanned,
          documentsExamined: 0,
        },
      });
    }
    const answer = await this.query(q, params);
    if (q.kind === 'find' && answer.kind === 'rows') {
      const n = answer.rows.length;
      steps.push({
        label: 'multi-get',
        plan: {
          access: 'key',
          used: [`${this.hbase.qualified(this.docs)} (row keys)`],
          documentsExamined: n,
          returned: n,
          warnings: [],
          source: 'the multi-get of the ids the index rows name',
          raw: `GET ${this.docs}/multiget of ${n} documents${q.join ? `, then of their ${q.join.from}` : ''}`,
        },
      });
    }
    const returned = answer.kind === 'count' ? 1 : answer.rows.length;
    if (steps.length === 0)
      steps.push({
        label: 'empty range',
        plan: {
          access: 'index',
          used: [],
          keysExamined: 0,
          documentsExamined: 0,
          returned: 0,
          warnings: [],
          source: 'the parameters give an empty row-key range: nothing is read',
          raw: '',
        },
      });
    return { ...combineEvidence(steps), returned, indexExpected: true };
  }

  async read(collection: Collection, id: string): Promise<Doc | null> {
    const row = await this.hbase.get(this.docs, this.docKey(collection, id));
    return row === null || row.cells.length === 0 ? null : docOf(row);
  }

  private async exists(collection: Collection, id: string): Promise<boolean> {
    return (await this.hbase.get(this.docs, this.docKey(collection, id), [col('_id')])) !== null;
  }

  async insert(collection: Collection, doc: Doc): Promise<void> {
    await this.insertMany(collection, [doc]);
  }

  async update(collection: Collection, before: Doc, after: Doc, paths: readonly string[]): Promise<boolean> {
    const key = this.docKey(collection, String(before._id));
    if (!(await this.exists(collection, String(before._id)))) return false;
    const queries = this.queriesOf(collection);
    const oldRows = new Map(queries.flatMap((i) => indexRows(i, before)).map((r) => [r.key, JSON.stringify(r.cells)]));
    const oldKeys = new Set(oldRows.keys());
    const newRows = queries.flatMap((i) => indexRows(i, after));
    // New rows, and rows whose covered values change; the rest stand as they are.
    await this.hbase.put(
      this.index,
      newRows.filter((r) => oldRows.get(r.key) !== JSON.stringify(r.cells)),
    );
    // The fields set: put where `after` has them, their columns deleted where it has not.
    const fields = [...new Set(paths.map(topLevel))];
    const present = fields.filter((f) => after[f] !== undefined);
    const absent = fields.filter((f) => after[f] === undefined);
    if (present.length > 0)
      await this.hbase.put(this.docs, [
        { key, cells: present.map((f) => ({ column: col(f), value: JSON.stringify(after[f]) })) },
      ]);
    if (absent.length > 0) await this.hbase.deleteRow(this.docs, key, absent.map(col));
    const newKeys = new Set(newRows.map((r) => r.key));
    for (const old of oldKeys) if (!newKeys.has(old)) await this.hbase.deleteRow(this.index, old);
    const deltas: CounterDeltas = new Map();
    for (const i of queries) {
      addCounters(deltas, i, before, -1);
      addCounters(deltas, i, after, 1);
    }
    await this.increment(deltas);
    return true;
  }

  async delete(collection: Collection, before: Doc): Promise<boolean> {
    if (!(await this.exists(collection, String(before._id)))) return false;
    await this.hbase.deleteRow(this.docs, this.docKey(collection, String(before._id)));
    const queries = this.queriesOf(collection);
    for (const key of new Set(queries.flatMap((i) => indexKeys(i, before))))
      await this.hbase.deleteRow(this.index, key);
    const deltas: CounterDeltas = new Map();
    for (const i of queries) addCounters(deltas, i, before, -1);
    await this.increment(deltas);
    return true;
  }

  async readManifest(): Promise<Manifest | null> {
    const row = await this.hbase.get(this.docs, MANIFEST_ID, [col('manifest')]);
    const cell = row?.cells.find((c) => c.column === col('manifest'));
    return cell ? (JSON.parse(cell.value) as Manifest) : null;
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.hbase.put(this.docs, [
      { key: MANIFEST_ID, cells: [{ column: col('manifest'), value: JSON.stringify(manifest) }] },
    ]);
  }
}

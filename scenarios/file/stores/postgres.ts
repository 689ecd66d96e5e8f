/**
 * A scenario file on PostgreSQL's JSONB (node-postgres): the file's MongoDB filters written as SQL
 * over documents (postgres-sql.ts), joins as JOIN, groups as GROUP BY.
 *
 *   collections  one table per file collection, `<scenario>_<collection>` (id text COLLATE "C"
 *                PRIMARY KEY, doc jsonb): the document whole, `_id` included
 *   indexes      each declared index as a btree expression index on its fields, "C"-collated text
 *                or the JSONB value, each in its direction (descending NULLS LAST, ascending NULLS
 *                FIRST: a missing field sorts first, as in MongoDB), `id` last in the last field's
 *                direction (the tie rule); a field through an array cannot be a btree key: it is
 *                served by one GIN index (jsonb_path_ops) on the collection's documents, for
 *                containment (`doc @> '{"tags": ["db"]}'`), the index's other fields staying a
 *                btree; then ANALYZE
 *   find         SELECT doc (or jsonb_build_object of the projected fields) FROM t WHERE …
 *                ORDER BY <keys> COLLATE "C" …, id OFFSET LIMIT
 *   join         … LEFT JOIN <from> j ON j.id = t.doc->>'<ref>': the joined document (or its
 *                projected fields) under its name, absent where nothing matches
 *   group        SELECT <by> AS _id, count(*), sum(<field>::numeric) … GROUP BY 1
 *   count        SELECT count(*) …
 *   writes       INSERT; UPDATE … SET doc = doc - <removed fields> || <changed top-level fields>;
 *                DELETE
 *   plans        EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) of the same statement
 *
 * Refused, with the reason: a sort key, projection, group key or sum through an array (MongoDB
 * sorts by an array's least or greatest element and projects and groups arrays element-wise;
 * not written here).
 */
import { explainStatement } from '../../../src/stores/postgres/explain.ts';
import { quoteIdent, type PostgresHandle } from '../../../src/stores/postgres/handle.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type { Answer } from '../answers.ts';
import {
  MANIFEST_ID,
  prefixOf,
  refuses,
  runs,
  type FileDialect,
  type FileDialectContext,
  type FileDialectDefinition,
  type Manifest,
  type Translation,
} from '../dialect.ts';
import type { ResolvedPath } from '../fields.ts';
import type { Doc, Value } from '../generator.ts';
import { indexExpected as expectIndex, type Collection, type FindQuery, type Query, type Scenario } from '../model.ts';
import {
  ConditionWriter,
  fieldExpression,
  indexExpression,
  literal,
  plainPath,
  valueExpression,
  signature,
  Statement,
  type Params,
} from './postgres-sql.ts';

export const dialect: FileDialectDefinition<'postgres'> = {
  store: 'postgres',
  create: (handle, context) => new PostgresFile(handle, context),
};

/** A statement for one signature of a query: its text, name and parameter getters. */
interface Prepared {
  name: string;
  text: string;
  statement: Statement;
}

let statementCount = 0;

/** Why a query cannot be written, or undefined. */
function refusal(q: Query): string | undefined {
  const through = (p: ResolvedPath) => !plainPath(p);
  if (q.kind === 'group') {
    if (through(q.by))
      return `${q.by.path} is reached through an array: MongoDB groups by the array of its values, which GROUP BY on the JSONB values would not reproduce; not written for PostgreSQL`;
    if (q.sum !== undefined && through(q.sum))
      return `${q.sum.path} is reached through an array: MongoDB's $sum skips arrays; not written for PostgreSQL`;
  }
  if (q.kind === 'find') {
    const key = q.order.find((k) => through(k.resolved));
    if (key !== undefined)
      return `${key.path} is an array or inside one: MongoDB sorts by its least (ascending) or greatest (descending) element; ORDER BY on JSONB would compare whole arrays, so this sort is not written for PostgreSQL`;
  }
  return undefined;
}

class PostgresFile implements FileDialect {
  readonly translations: ReadonlyMap<string, Translation>;
  readonly structures: string;
  private readonly scenario: Scenario;
  private readonly manifestTable: string;
  private readonly prepared = new Map<string, Prepared>();

  constructor(
    private readonly handle: PostgresHandle,
    context: FileDialectContext,
  ) {
    this.scenario = context.scenario;
    this.manifestTable = quoteIdent(`${prefixOf(this.scenario)}__manifest`);
    this.translations = new Map(
      [...this.scenario.queries.values()].map((q) => {
        const reason = refusal(q) ?? this.projectionRefusal(q);
        if (reason !== undefined) return [q.name, refuses(reason)];
        return [q.name, runs(this.build(q, signature(q.where, {}).replaceAll('0', '1')).text)];
      }),
    );
    const indexes = [...this.scenario.collections.values()].flatMap((c) =>
      this.indexStatements(c).map((i) => i.describe),
    );
    this.structures = `PostgreSQL tables (id, doc jsonb); expression indexes: ${indexes.join('; ') || 'none declared (only the primary key)'}`;
  }

  private projectionRefusal(q: Query): string | undefined {
    if (q.kind !== 'find') return undefined;
    const paths = [
      ...(q.project ?? []).map((p) => [q.collection, p] as const),
      ...(q.join?.project ?? []).map((p) => [q.join!.from, p] as const),
    ];
    for (const [collection, path] of paths) {
      if (path.split('.').length === 1) continue;
      const c = this.scenario.collections.get(collection)!;
      const segments = path.split('.');
      // Each step of a nested projected path must be an object, never an array.
      let fields = c.info;
      for (const s of segments.slice(0, -1)) {
        const f = fields.get(s);
        if (f === undefined || f.kind !== 'object')
          return `the projection ${path} goes through an array: MongoDB projects it element by element; not written for PostgreSQL`;
        fields = f.fields;
      }
    }
    return undefined;
  }

  private table(c: Collection | string): string {
    const collection = typeof c === 'string' ? this.scenario.collections.get(c)! : c;
    return quoteIdent(collection.storeName);
  }

  /** A declared index's statements: a btree on its plain fields (and id), a GIN on the documents for fields through arrays. */
  private indexStatements(c: Collection): { sql: string; describe: string }[] {
    const out: { sql: string; describe: string }[] = [];
    let gin = false;
    for (const [k, index] of c.indexes.entries()) {
      const plain = index.filter((f) => plainPath(f.resolved) && f.resolved.leaf.kind === 'scalar');
      if (plain.length < index.length) gin = true;
      if (plain.length === 0) continue;
      const keys = plain.map((f) => {
        const type = f.resolved.leaf.kind === 'scalar' ? f.resolved.leaf.type : 'string';
        return `${indexExpression(f.path, type)} ${f.descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`;
      });
      if (!plain.some((f) => f.path === '_id')) keys.push(`id ${index.at(-1)!.descending ? 'DESC' : 'ASC'}`);
      const name = quoteIdent(`${c.storeName}_i${k}`);
      out.push({
        sql: `CREATE INDEX IF NOT EXISTS ${name} ON ${this.table(c)} (${keys.join(', ')})`,
        describe: `${c.storeName} btree (${keys.join(', ')})`,
      });
    }
    if (gin)
      out.push({
        sql: `CREATE INDEX IF NOT EXISTS ${quoteIdent(`${c.storeName}_gin`)} ON ${this.table(c)} USING gin (doc jsonb_path_ops)`,
        describe: `${c.storeName} GIN (doc jsonb_path_ops) for the fields through arrays`,
      });
    return out;
  }

  /** The projection of a row `alias` as a JSONB expression: `_id` and the paths, absent fields left out. */
  private projection(alias: string, paths: readonly string[]): string {
    interface Node {
      children: Map<string, Node>;
      whole: boolean;
    }
    const root: Node = { children: new Map(), whole: false };
    for (const p of paths) {
      let node = root;
      for (const s of p.split('.')) {
        let child = node.children.get(s);
        if (child === undefined) node.children.set(s, (child = { children: new Map(), whole: false }));
        node = child;
      }
      node.whole = true;
    }
    const build = (node: Node, at: string): string =>
      `jsonb_build_object(${[...node.children]
        .map(([key, child]) => {
          const value = `${at}->${literal(key)}`;
          const expression = child.whole
            ? value
            : `CASE WHEN jsonb_typeof(${value}) = 'object' THEN ${build(child, value)} END`;
          return `${literal(key)}, ${expression}`;
        })
        .join(', ')})`;
    root.children.delete('_id');
    const fields = root.children.size > 0 ? `${build(root, `${alias}.doc`)} || ` : '';
    // No generated document holds a JSON null: stripping the nulls drops exactly the absent fields.
    return `jsonb_strip_nulls(${fields}jsonb_build_object('_id', ${alias}.id))`;
  }

  /** A query's statement for one type signature of its parameters. */
  private build(q: Query, sig: string): Prepared {
    const statement = new Statement();
    const writer = new ConditionWriter(statement, sig);
    const t = `${this.table(q.collection)} t`;
    const where = writer.where(q.where);
    let text: string;
    if (q.kind === 'count') text = `SELECT count(*) AS n FROM ${t} WHERE ${where}`;
    else if (q.kind === 'group') {
      const by = q.by.path === '_id' ? 't.id' : valueExpression(q.by.path);
      const sumType = q.sum?.leaf.kind === 'scalar' ? q.sum.leaf.type : undefined;
      const sum =
        q.sum === undefined
          ? ''
          : sumType === 'int' || sumType === 'decimal'
            ? `, coalesce(sum((${fieldExpression(q.sum.path, sumType)})::numeric), 0) AS sum`
            : ', 0 AS sum';
      // Grouped by the JSONB value: a string and a number never share a group, as in MongoDB.
      text = `SELECT ${by} AS _id, count(*) AS count${sum} FROM ${t} WHERE ${where} GROUP BY 1`;
    } else text = this.findText(q, t, where);
    return { name: this.nameOf(text), text, statement };
  }

  private readonly names = new Map<string, string>();

  /** Each distinct text a prepared statement's name, the same on every connection. */
  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) this.names.set(text, (name = `scenario_${statementCount++}`));
    return name;
  }

  private findText(q: FindQuery, t: string, where: string): string {
    const row = q.project ? this.projection('t', q.project) : 't.doc';
    const order = q.order.map((k) => {
      const type = k.resolved.leaf.kind === 'scalar' ? k.resolved.leaf.type : 'string';
      // The key is never null: its index column is plain ASC or DESC, and so is the sort.
      if (k.path === '_id') return `t.id ${k.descending ? 'DESC' : 'ASC'}`;
      return `${fieldExpression(k.path, type)} ${k.descending ? 'DESC NULLS LAST' : 'ASC NULLS FIRST'}`;
    });
    const tail = [
      order.length > 0 ? `ORDER BY ${order.join(', ')}` : '',
      q.skip > 0 ? `OFFSET ${q.skip}` : '',
      q.limit !== undefined ? `LIMIT ${q.limit}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    const join = q.join;
    if (join === undefined) return `SELECT ${row} AS doc FROM ${t} WHERE ${where}${tail ? ` ${tail}` : ''}`;
    const ref = `t.doc #>> ${literal(
      `{${join.on.path
        .split('.')
        .map((s) => JSON.stringify(s))
        .join(',')}}`,
    )}`;
    const joined = join.project ? this.projection('j', join.project) : 'j.doc';
    const select = `SELECT CASE WHEN j.id IS NULL THEN ${row} ELSE ${row} || jsonb_build_object(${literal(join.as)}, ${joined}) END AS doc`;
    const on = `LEFT JOIN ${this.table(join.from)} j ON j.id = (${ref})`;
    // A LEFT JOIN on the joined table's key adds at most one row to each. A page is taken first
    // (its order, offset and limit), then joined, so the planner looks up its few rows by key.
    if (q.limit === undefined) return `${select} FROM ${t} ${on} WHERE ${where}${tail ? ` ${tail}` : ''}`;
    return `${select} FROM (SELECT t.id, t.doc FROM ${t} WHERE ${where} ${tail}) t ${on}${order.length > 0 ? ` ORDER BY ${order.join(', ')}` : ''}`;
  }

  private statementFor(q: Query, params: Params): { name: string; text: string; values: unknown[] } {
    const sig = signature(q.where, params);
    const key = `${q.name}\u0000${sig}`;
    let prepared = this.prepared.get(key);
    if (prepared === undefined) this.prepared.set(key, (prepared = this.build(q, sig)));
    return { name: prepared.name, text: prepared.text, values: prepared.statement.bind(params) };
  }

  private check(q: Query): void {
    const t = this.translations.get(q.name);
    if (t !== undefined && !t.supported) throw new UnsupportedError(q.name, t.reason);
  }

  async drop(): Promise<void> {
    const tables = [...this.scenario.collections.values()].map((c) => this.table(c));
    await this.handle.query(`DROP TABLE IF EXISTS ${[...tables, this.manifestTable].join(', ')}`);
  }

  async prepare(): Promise<void> {
    for (const c of this.scenario.collections.values())
      await this.handle.query(
        `CREATE TABLE IF NOT EXISTS ${this.table(c)} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`,
      );
    await this.handle.query(
      `CREATE TABLE IF NOT EXISTS ${this.manifestTable} (id text PRIMARY KEY, doc jsonb NOT NULL)`,
    );
  }

  async insertMany(collection: Collection, docs: readonly Doc[]): Promise<void> {
    if (docs.length === 0) return;
    await this.handle.query(
      `INSERT INTO ${this.table(collection)} (id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[])`,
      [docs.map((d) => String(d._id)), docs.map((d) => JSON.stringify(d))],
    );
  }

  async buildIndexes(): Promise<string> {
    const built: string[] = [];
    for (const c of this.scenario.collections.values()) {
      for (const index of this.indexStatements(c)) {
        await this.handle.query(index.sql);
        built.push(index.describe);
      }
      await this.handle.query(`ANALYZE ${this.table(c)}`);
    }
    return built.length > 0 ? `CREATE INDEX: ${built.join('; ')}; ANALYZE` : 'no index declared; ANALYZE';
  }

  async query(q: Query, params: Params): Promise<Answer> {
    this.check(q);
    const rows = await this.handle.query(this.statementFor(q, params));
    if (q.kind === 'count') return { kind: 'count', count: Number(rows[0]?.n ?? 0) };
    if (q.kind === 'group')
      return {
        kind: 'rows',
        rows: rows.map((r) => ({
          _id: (r._id ?? null) as Value,
          count: Number(r.count),
          ...(q.sum !== undefined ? { sum: Number(r.sum) } : {}),
        })),
      };
    return { kind: 'rows', rows: rows.map((r) => r.doc as Doc) };
  }

  async explain(q: Query, params: Params): Promise<ScenarioPlan> {
    this.check(q);
    const collection = this.scenario.collections.get(q.collection)!;
    const statement = this.statementFor(q, params);
    const plan = await explainStatement(this.handle, statement.text, statement.values);
    return {
      ...plan,
      indexExpected: expectIndex(q, collection),
      ...(q.kind === 'find' && q.limit !== undefined ? { rowsNeeded: q.skip + q.limit } : {}),
    };
  }

  async read(collection: Collection, id: string): Promise<Doc | null> {
    const rows = await this.handle.query<{ doc: Doc }>(`SELECT doc FROM ${this.table(collection)} WHERE id = $1`, [id]);
    return rows[0]?.doc ?? null;
  }

  async insert(collection: Collection, doc: Doc): Promise<void> {
    await this.handle.query(`INSERT INTO ${this.table(collection)} (id, doc) VALUES ($1, $2::jsonb)`, [
      String(doc._id),
      JSON.stringify(doc),
    ]);
  }

  async update(collection: Collection, before: Doc, after: Doc, paths: readonly string[]): Promise<boolean> {
    // Each changed path's top-level field, whole from the document after: a nested path's siblings come with it.
    const set: Record<string, Value> = {};
    const removed: string[] = [];
    for (const p of paths) {
      const top = p.split('.')[0]!;
      if (after[top] === undefined) removed.push(top);
      else set[top] = after[top];
    }
    const result = await this.handle.result(
      `UPDATE ${this.table(collection)} SET doc = (doc - $3::text[]) || $2::jsonb WHERE id = $1`,
      [String(before._id), JSON.stringify(set), removed],
    );
    return (result.rowCount ?? 0) === 1;
  }

  async delete(collection: Collection, before: Doc): Promise<boolean> {
    const result = await this.handle.result(`DELETE FROM ${this.table(collection)} WHERE id = $1`, [
      String(before._id),
    ]);
    return (result.rowCount ?? 0) === 1;
  }

  async readManifest(): Promise<Manifest | null> {
    try {
      const rows = await this.handle.query<{ doc: Manifest }>(`SELECT doc FROM ${this.manifestTable} WHERE id = $1`, [
        MANIFEST_ID,
      ]);
      return rows[0]?.doc ?? null;
    } catch (error) {
      // 42P01: no such table, nothing seeded yet.
      if ((error as { code?: string }).code === '42P01') return null;
      throw error;
    }
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.handle.query(
      `INSERT INTO ${this.manifestTable} (id, doc) VALUES ($1, $2::jsonb) ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc`,
      [MANIFEST_ID, JSON.stringify(manifest)],
    );
  }
}

/**
 * Persons on PostgreSQL's JSONB (node-postgres): one row per person in a table of the store's
 * database (`persons`, `persons_nested`), `id text COLLATE "C" PRIMARY KEY, doc jsonb` (the person
 * without its id), loaded one INSERT per document (or `INSERT … SELECT FROM unnest` in bulk),
 * every query a SELECT whose rows are all read.
 *
 * Two ways to write Q1–Q5, both measured (the variants):
 *   sql       typed SQL over the document's fields, as a PostgreSQL developer writes it:
 *               range   ((doc->>'salary')::numeric) > 18500 AND … < 35000
 *               exists  doc ? 'fax'
 *               anyOf   flat: (doc->>'pet') IN ('Penguin'); nested: (doc->'pet') ?| ARRAY['Penguin']
 *                       (`?|`: any of the strings is an element of the array)
 *             with `--indexes`, an expression index per query, value condition first, then salary
 *             and age: btree (salary, age) for Q1 and Q2; the same partial WHERE doc ? 'fax' for
 *             Q3; flat: btree ((doc->>'pet'), salary, age) and likewise for the Jedi power;
 *             nested: GIN ((doc->'pet')) and GIN ((doc->'jedi power')), whose arrays a btree
 *             cannot search by element.
 *   jsonpath  one SQL/JSON path predicate on the whole document, as a document-store user writes
 *             it: doc @? '$ ? (@.salary > 18500 && … && @.pet == "Penguin")' (lax mode: the same
 *             path matches a value and every element of an array, both shapes alike); with
 *             `--indexes`, one GIN index on the document (jsonb_ops), which serves the path's
 *             equalities and existence tests (Q3–Q5) but no range: Q1 and Q2 read the table.
 * Without indexes both read the whole table (Seq Scan), as the thesis's stores did.
 *
 * With indexes, each query an index is built for runs with `SET LOCAL enable_seqscan = off` in
 * the same implicit transaction (one round trip, the conditions are constants): the planner then
 * takes the index however large the answer (Q1 is half the table, where it would read the table
 * instead), so each variant measures what its index does, as CouchDB's Mango names its index
 * with `use_index`. The recorded plan (EXPLAIN ANALYZE under the same setting) shows which index
 * served it.
 *
 * Size: pg_table_size (heap, TOAST, free-space and visibility maps) + pg_indexes_size, taken after
 * the load and before any secondary index, so the index part is the primary key alone.
 * Compaction: VACUUM FULL (rewrites the table and its indexes), then the size again.
 */
import { explainStatement, postgresPlan } from '../../../src/stores/postgres/explain.ts';
import { quoteIdent, type PostgresHandle } from '../../../src/stores/postgres/handle.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  Compactor,
  DialectContext,
  DiskSize,
  IndexBuilder,
  PersonsDialect,
  PersonsDialectDefinition,
  QueryExplainer,
  QueryVariant,
} from '../dialect.ts';
import { FIELD, type Person, type PersonRecord } from '../model.ts';
import type { Condition, PersonsQuery } from '../queries.ts';

export const dialect: PersonsDialectDefinition<'postgres'> = {
  store: 'postgres',
  create: (handle, context) => new PostgresPersons(handle, context),
};

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
/** A field name inside a SQL/JSON path ("jedi power" has a space). */
const pathKey = (field: string) => `"${field.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
const numeric = (field: string) => `((doc->>${literal(field)})::numeric)`;

/** One condition in typed SQL, for a shape. */
function sqlCondition(c: Condition, nested: boolean): string {
  switch (c.kind) {
    case 'range':
      return [
        ...(c.above !== undefined ? [`${numeric(c.field)} > ${c.above}`] : []),
        ...(c.below !== undefined ? [`${numeric(c.field)} < ${c.below}`] : []),
      ].join(' AND ');
    case 'exists':
      return `doc ? ${literal(c.field)}`;
    case 'anyOf':
      return nested
        ? `(doc->${literal(c.field)}) ?| ARRAY[${c.values.map(literal).join(', ')}]`
        : `(doc->>${literal(c.field)}) IN (${c.values.map(literal).join(', ')})`;
  }
}

/** One condition as a SQL/JSON path predicate on the document `@`. */
function pathCondition(c: Condition): string {
  const at = `@.${pathKey(c.field)}`;
  switch (c.kind) {
    case 'range':
      return [
        ...(c.above !== undefined ? [`${at} > ${c.above}`] : []),
        ...(c.below !== undefined ? [`${at} < ${c.below}`] : []),
      ].join(' && ');
    case 'exists':
      return `exists(${at})`;
    case 'anyOf':
      return `(${c.values.map((v) => `${at} == ${JSON.stringify(v)}`).join(' || ')})`;
  }
}

const VARIANT_NAMES = ['sql', 'jsonpath'] as const;
type VariantName = (typeof VARIANT_NAMES)[number];

/** Whether a variant's indexes can serve a query: every query in `sql`; in `jsonpath` those with an equality or existence test. */
function served(variant: VariantName, query: PersonsQuery): boolean {
  return variant === 'sql' || query.where.some((c) => c.kind !== 'range');
}

class PostgresPersons implements PersonsDialect, IndexBuilder, Compactor, QueryExplainer {
  readonly variants: readonly QueryVariant[];
  private readonly table: string;
  private readonly nested: boolean;

  constructor(
    private readonly handle: PostgresHandle,
    private readonly context: DialectContext,
  ) {
    this.table = quoteIdent(context.collection);
    this.nested = context.shape === 'nested';
    this.variants = [
      {
        name: 'sql',
        description: context.indexes
          ? 'typed SQL on the fields ((doc->>salary)::numeric, doc ? fax, IN / ?| on pet and jedi power); an expression index per query (btree; GIN on the nested arrays), the planner told to prefer it'
          : 'typed SQL on the fields ((doc->>salary)::numeric, doc ? fax, IN / ?| on pet and jedi power); no index: the whole table read',
      },
      {
        name: 'jsonpath',
        description: context.indexes
          ? "doc @? '$ ? (@.salary > … && @.pet == …)', a SQL/JSON path on the document; one GIN index on the document serving its equalities and existence tests (Q3–Q5), not its ranges"
          : "doc @? '$ ? (@.salary > … && @.pet == …)', a SQL/JSON path on the document; no index: the whole table read",
      },
    ];
  }

  private where(variant: VariantName, query: PersonsQuery): string {
    if (variant === 'sql') return query.where.map((c) => sqlCondition(c, this.nested)).join(' AND ');
    return `doc @? ${literal(`$ ? (${query.where.map(pathCondition).join(' && ')})`)}`;
  }

  /** The query's statement, preceded by the planner setting where its index is to serve it. */
  private statement(variant: string, query: PersonsQuery, explain = false): string {
    const v = checkVariant(variant);
    const select = `SELECT id, doc FROM ${this.table} WHERE ${this.where(v, query)}`;
    const forced = this.context.indexes && served(v, query);
    const text = explain ? `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${select}` : select;
    return forced ? `SET LOCAL enable_seqscan = off; ${text}` : text;
  }

  async drop(): Promise<void> {
    await this.handle.query(`DROP TABLE IF EXISTS ${this.table}`);
  }

  async prepare(): Promise<void> {
    await this.handle.query(
      `CREATE TABLE IF NOT EXISTS ${this.table} (id text COLLATE "C" PRIMARY KEY, doc jsonb NOT NULL)`,
    );
  }

  async insertMany(records: readonly PersonRecord[]): Promise<void> {
    if (records.length === 0) return;
    await this.handle.query(`INSERT INTO ${this.table} (id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[])`, [
      records.map((r) => r.id),
      records.map((r) => JSON.stringify(r.person)),
    ]);
  }

  async insertOne(record: PersonRecord): Promise<void> {
    await this.handle.query({
      name: `${this.context.collection}_insert`,
      text: `INSERT INTO ${this.table} (id, doc) VALUES ($1, $2::jsonb)`,
      values: [record.id, JSON.stringify(record.person)],
    });
  }

  /** The expression indexes of the `sql` variant and the document's GIN index of `jsonpath`. */
  private indexStatements(): { name: string; sql: string }[] {
    const c = this.context.collection;
    const t = this.table;
    const salaryAge = `${numeric(FIELD.salary)}, ${numeric(FIELD.age)}`;
    const valueIndex = (field: string) =>
      this.nested
        ? { name: `${c}_${field.replace(/\W+/g, '_')}_gin`, on: `${t} USING gin ((doc->${literal(field)}))` }
        : {
            name: `${c}_${field.replace(/\W+/g, '_')}_salary_age`,
            on: `${t} ((doc->>${literal(field)}), ${salaryAge})`,
          };
    const specs = [
      { name: `${c}_salary_age`, on: `${t} (${salaryAge})` },
      { name: `${c}_fax_salary_age`, on: `${t} (${salaryAge}) WHERE doc ? ${literal(FIELD.fax)}` },
      valueIndex(FIELD.pet),
      valueIndex(FIELD.jediPower),
      { name: `${c}_doc_gin`, on: `${t} USING gin (doc)` },
    ];
    return specs.map((s) => ({ name: s.name, sql: `CREATE INDEX IF NOT EXISTS ${quoteIdent(s.name)} ON ${s.on}` }));
  }

  async buildIndexes(): Promise<string> {
    const specs = this.indexStatements();
    for (const s of specs) await this.handle.query(s.sql);
    await this.handle.query(`ANALYZE ${this.table}`);
    return `CREATE INDEX ${specs.map((s) => s.name).join(', ')} (sql: btree expression indexes${this.nested ? ', GIN on the nested arrays' : ''}, the "has a fax" one partial; jsonpath: GIN on the document), then ANALYZE`;
  }

  async query(variant: string, query: PersonsQuery): Promise<PersonRecord[]> {
    const result = await this.handle.result<{ id: string; doc: Person }>(this.statement(variant, query));
    // With the planner setting, the reply is one result per statement: the rows are the last one's.
    const rows = Array.isArray(result) ? (result.at(-1) as typeof result).rows : result.rows;
    return rows.map((r: { id: string; doc: Person }) => ({ id: r.id, person: r.doc }));
  }

  async explain(variant: string, query: PersonsQuery): Promise<ScenarioPlan> {
    const v = checkVariant(variant);
    const indexExpected = this.context.indexes && served(v, query);
    if (!indexExpected)
      return { ...(await explainStatement(this.handle, this.statement(variant, query))), indexExpected };
    // The setting and EXPLAIN in one implicit transaction, as the query ran.
    const result = (await this.handle.result(this.statement(variant, query, true))) as unknown as {
      rows: { 'QUERY PLAN': unknown }[];
    }[];
    return { ...postgresPlan(result.at(-1)!.rows[0]?.['QUERY PLAN']), indexExpected };
  }

  async sizeOnDisk(): Promise<DiskSize> {
    const [row] = await this.handle.query<{ table: string; indexes: string }>(
      `SELECT pg_table_size($1::regclass) AS table, pg_indexes_size($1::regclass) AS indexes`,
      [this.table],
    );
    if (row === undefined) return { method: `no size for ${this.context.collection} (pg_table_size)` };
    return {
      bytes: Number(row.table) + Number(row.indexes),
      method:
        'pg_table_size (heap, TOAST, free-space and visibility maps) + pg_indexes_size (the primary key; taken before any secondary index)',
    };
  }

  async compact(): Promise<DiskSize> {
    await this.handle.query(`VACUUM FULL ${this.table}`);
    const size = await this.sizeOnDisk();
    return size.bytes === undefined
      ? size
      : { bytes: size.bytes, method: 'pg_table_size + pg_indexes_size after VACUUM FULL' };
  }
}

function checkVariant(variant: string): VariantName {
  if (!(VARIANT_NAMES as readonly string[]).includes(variant))
    throw new Error(`postgres: unknown variant "${variant}"`);
  return variant as VariantName;
}

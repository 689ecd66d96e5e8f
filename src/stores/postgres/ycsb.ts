/**
 * YCSB on PostgreSQL's JSONB, the layout of YCSB's own `postgrenosql` binding: one table per YCSB
 * table, a key column and the record as one JSONB document of its fields.
 *
 *   CREATE TABLE usertable (ycsb_key VARCHAR(255) COLLATE "C" PRIMARY KEY, ycsb_value JSONB NOT NULL)
 *
 * (YCSB writes YCSB_KEY/YCSB_VALUE unquoted, which PostgreSQL folds to these names.) The key's
 * collation is "C" so a scan's key order is the keys' byte order on every server, whatever its
 * default collation, and the primary key's index serves it.
 *
 *   read    SELECT ycsb_value (or ycsb_value->>'f' per wanted field) WHERE ycsb_key = $1
 *   insert  INSERT; a duplicate key (23505) is an error, never swallowed
 *   update  UPDATE … SET ycsb_value = ycsb_value || $2::jsonb (the given fields replaced); 0 rows -> false
 *   delete  DELETE; 0 rows -> false
 *   scan    WHERE ycsb_key >= $1 ORDER BY ycsb_key LIMIT $2
 *   insertMany  one INSERT … SELECT FROM unnest($1::text[], $2::jsonb[]) per batch, the load's bulk write
 *
 * Every statement is named, so each pooled connection prepares it once and then only binds.
 */
import type { FieldMap, KeyedRecord, YcsbSchema } from '../store.ts';
import type { YcsbOperations } from '../ycsb-store.ts';
import { quoteIdent, type PostgresHandle } from './handle.ts';

/** A statement's text and its name: the same name for the same text on every connection of this process. */
interface Statement {
  readonly name: string;
  readonly text: string;
}

interface Statements {
  readAll: Statement;
  insert: Statement;
  update: Statement;
  delete: Statement;
  scanAll: Statement;
  insertMany: Statement;
  /** Per wanted-fields list (YCSB reads all fields or one list per run): its read and scan. */
  projected: Map<string, Projection>;
}

interface Projection {
  read: Statement;
  scan: Statement;
  names: readonly string[];
  /** The result's column for each wanted field (f0, f1, …). */
  columns: readonly string[];
}

export class YcsbTables implements YcsbOperations {
  /** The YCSB table last used, for the stats' sizes. */
  lastTable: string | undefined;
  private readonly statements = new Map<string, Statements>();

  constructor(private readonly handle: PostgresHandle) {}

  private sql(table: string): Statements {
    let s = this.statements.get(table);
    if (s === undefined) {
      const t = quoteIdent(table);
      s = {
        readAll: statement(`SELECT ycsb_value FROM ${t} WHERE ycsb_key = $1`),
        insert: statement(`INSERT INTO ${t} (ycsb_key, ycsb_value) VALUES ($1, $2::jsonb)`),
        update: statement(`UPDATE ${t} SET ycsb_value = ycsb_value || $2::jsonb WHERE ycsb_key = $1`),
        delete: statement(`DELETE FROM ${t} WHERE ycsb_key = $1`),
        scanAll: statement(`SELECT ycsb_key, ycsb_value FROM ${t} WHERE ycsb_key >= $1 ORDER BY ycsb_key LIMIT $2`),
        insertMany: statement(`INSERT INTO ${t} (ycsb_key, ycsb_value) SELECT * FROM unnest($1::text[], $2::jsonb[])`),
        projected: new Map(),
      };
      this.statements.set(table, s);
      this.lastTable = table;
    }
    return s;
  }

  private projection(table: string, fields: readonly string[]): Projection {
    const s = this.sql(table);
    const id = fields.join('\u0000');
    let p = s.projected.get(id);
    if (p === undefined) {
      const t = quoteIdent(table);
      const columns = fields.map((_, i) => `f${i}`);
      // Each field as text, named by its index (field names are YCSB's, but any text is allowed).
      // No field wanted (scankeysonly): the key alone, and a read says only whether the record is there.
      const list = fields.map((f, i) => `, ycsb_value->>${literal(f)} AS ${columns[i]}`).join('');
      p = {
        read: statement(`SELECT true AS found${list} FROM ${t} WHERE ycsb_key = $1`),
        scan: statement(`SELECT ycsb_key${list} FROM ${t} WHERE ycsb_key >= $1 ORDER BY ycsb_key LIMIT $2`),
        names: [...fields],
        columns,
      };
      s.projected.set(id, p);
    }
    return p;
  }

  async prepare(schema: YcsbSchema): Promise<void> {
    await this.handle.query(
      `CREATE TABLE IF NOT EXISTS ${quoteIdent(schema.table)} (ycsb_key VARCHAR(255) COLLATE "C" PRIMARY KEY, ycsb_value JSONB NOT NULL)`,
    );
    this.lastTable = schema.table;
  }

  async drop(schema: YcsbSchema): Promise<void> {
    await this.handle.query(`DROP TABLE IF EXISTS ${quoteIdent(schema.table)}`);
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    if (fields === null) {
      const rows = await this.handle.query<{ ycsb_value: FieldMap }>(bound(this.sql(table).readAll, [key]));
      return rows[0]?.ycsb_value ?? null;
    }
    const p = this.projection(table, fields);
    const rows = await this.handle.query(bound(p.read, [key]));
    return rows[0] === undefined ? null : pick(rows[0], p);
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    if (fields === null) {
      const rows = await this.handle.query<{ ycsb_key: string; ycsb_value: FieldMap }>(
        bound(this.sql(table).scanAll, [startKey, count]),
      );
      return rows.map((row) => ({ key: row.ycsb_key, fields: row.ycsb_value }));
    }
    const p = this.projection(table, fields);
    const rows = await this.handle.query(bound(p.scan, [startKey, count]));
    return rows.map((row) => ({ key: String(row.ycsb_key), fields: pick(row, p) }));
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const result = await this.handle.result(bound(this.sql(table).update, [key, JSON.stringify(values)]));
    return (result.rowCount ?? 0) > 0;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.handle.result(bound(this.sql(table).insert, [key, JSON.stringify(values)]));
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const keys = records.map((r) => r.key);
    const values = records.map((r) => JSON.stringify(r.fields));
    await this.handle.result(bound(this.sql(table).insertMany, [keys, values]));
  }

  async delete(table: string, key: string): Promise<boolean> {
    const result = await this.handle.result(bound(this.sql(table).delete, [key]));
    return (result.rowCount ?? 0) > 0;
  }
}

/** A projected row (columns f0, f1, … in the wanted order) as the record's fields; a missing field is left out. */
function pick(row: Record<string, unknown>, p: Projection): FieldMap {
  const fields: FieldMap = {};
  for (let i = 0; i < p.names.length; i++) {
    const value = row[p.columns[i]!];
    if (typeof value === 'string') fields[p.names[i]!] = value;
  }
  return fields;
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

const names = new Map<string, string>();

/** A prepared statement's name per distinct text: "ycsb_<n>", the same on every connection of this process. */
function statement(text: string): Statement {
  let name = names.get(text);
  if (name === undefined) {
    name = `ycsb_${names.size}`;
    names.set(text, name);
  }
  return { name, text };
}

/** One execution's query: the statement's name and text (node-postgres prepares it once per connection) and its values. */
function bound(s: Statement, values: unknown[]) {
  return { name: s.name, text: s.text, values };
}

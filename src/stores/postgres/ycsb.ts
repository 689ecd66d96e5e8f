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

interface Statements {
  readAll: string;
  insert: string;
  update: string;
  delete: string;
  scanAll: string;
  insertMany: string;
  /** Per wanted-fields list (YCSB reads all fields or one list per run): its read and scan. */
  projected: Map<string, { read: string; scan: string; names: string[] }>;
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
        readAll: `SELECT ycsb_value FROM ${t} WHERE ycsb_key = $1`,
        insert: `INSERT INTO ${t} (ycsb_key, ycsb_value) VALUES ($1, $2::jsonb)`,
        update: `UPDATE ${t} SET ycsb_value = ycsb_value || $2::jsonb WHERE ycsb_key = $1`,
        delete: `DELETE FROM ${t} WHERE ycsb_key = $1`,
        scanAll: `SELECT ycsb_key, ycsb_value FROM ${t} WHERE ycsb_key >= $1 ORDER BY ycsb_key LIMIT $2`,
        insertMany: `INSERT INTO ${t} (ycsb_key, ycsb_value) SELECT * FROM unnest($1::text[], $2::jsonb[])`,
        projected: new Map(),
      };
      this.statements.set(table, s);
      this.lastTable = table;
    }
    return s;
  }

  /** The statement's name: its text, short enough for PostgreSQL's 63-byte names and unique per text. */
  private named(text: string, values: unknown[]) {
    return { name: statementName(text), text, values };
  }

  private projection(table: string, fields: readonly string[]) {
    const s = this.sql(table);
    const id = fields.join('\u0000');
    let p = s.projected.get(id);
    if (p === undefined) {
      const t = quoteIdent(table);
      // Each field as text, named by its index (field names are YCSB's, but any text is allowed).
      const columns = fields.map((f, i) => `ycsb_value->>${literal(f)} AS f${i}`).join(', ');
      p = {
        read: `SELECT ${columns} FROM ${t} WHERE ycsb_key = $1`,
        scan: `SELECT ycsb_key, ${columns} FROM ${t} WHERE ycsb_key >= $1 ORDER BY ycsb_key LIMIT $2`,
        names: [...fields],
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
      const rows = await this.handle.query<{ ycsb_value: FieldMap }>(this.named(this.sql(table).readAll, [key]));
      return rows[0]?.ycsb_value ?? null;
    }
    const p = this.projection(table, fields);
    const rows = await this.handle.query(this.named(p.read, [key]));
    return rows[0] === undefined ? null : pick(rows[0], p.names);
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    if (fields === null) {
      const rows = await this.handle.query<{ ycsb_key: string; ycsb_value: FieldMap }>(
        this.named(this.sql(table).scanAll, [startKey, count]),
      );
      return rows.map((row) => ({ key: row.ycsb_key, fields: row.ycsb_value }));
    }
    const p = this.projection(table, fields);
    const rows = await this.handle.query(this.named(p.scan, [startKey, count]));
    return rows.map((row) => ({ key: String(row.ycsb_key), fields: pick(row, p.names) }));
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    const result = await this.handle.pool.query(this.named(this.sql(table).update, [key, JSON.stringify(values)]));
    return (result.rowCount ?? 0) > 0;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.handle.pool.query(this.named(this.sql(table).insert, [key, JSON.stringify(values)]));
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    if (records.length === 0) return;
    const keys = records.map((r) => r.key);
    const values = records.map((r) => JSON.stringify(r.fields));
    await this.handle.pool.query(this.named(this.sql(table).insertMany, [keys, values]));
  }

  async delete(table: string, key: string): Promise<boolean> {
    const result = await this.handle.pool.query(this.named(this.sql(table).delete, [key]));
    return (result.rowCount ?? 0) > 0;
  }
}

/** A projected row (columns f0, f1, … in the wanted order) as the record's fields; a missing field is left out. */
function pick(row: Record<string, unknown>, names: readonly string[]): FieldMap {
  const fields: FieldMap = {};
  for (let i = 0; i < names.length; i++) {
    const value = row[`f${i}`];
    if (typeof value === 'string') fields[names[i]!] = value;
  }
  return fields;
}

/** A SQL string literal. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

const names = new Map<string, string>();

/** A prepared statement's name per distinct text: "ycsb_<n>", the same on every connection of this process. */
function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `ycsb_${names.size}`;
    names.set(text, name);
  }
  return name;
}

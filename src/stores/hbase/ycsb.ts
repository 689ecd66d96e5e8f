/**
 * YCSB's operations as YCSB's HBase binding (hbase2, HBaseClient2) runs them, through the REST
 * gateway: the table `usertable` (YCSB's `table`) with one column family (`hbase.columnfamily`,
 * YCSB's `columnfamily`), one row per record, row key = YCSB key, one column per field.
 *
 *   read    Get of the row (the whole family, or the fields' columns); an empty row is NOT_FOUND
 *   scan    Scan from the start key in row-key order, at most `count` rows (the binding's
 *           PageFilter + caching), the whole family or the fields' columns; with no field
 *           asked for (scankeysonly) the row keys alone: FirstKeyOnlyFilter and KeyOnlyFilter
 *           in the region server, so no value crosses the wire
 *   update  Put of the fields: an upsert, so a missing row is created, as in the binding
 *   insert  the same Put
 *   delete  Delete of the row: HBase writes a tombstone whether or not the row was there
 *   insertMany  one request holding many Puts (the gateway writes them as one batch)
 *
 * Scans ask for JSON whatever `hbase.format` says: the gateway's protobuf scan stream prefixes
 * each chunk with a 16-bit length, which a chunk of large rows (record-10kb) overflows.
 */
import type { YcsbOperations } from '../ycsb-store.ts';
import type { FieldMap, KeyedRecord, YcsbSchema } from '../store.ts';
import type { Cell, Row } from './cellset.ts';
import type { HbaseHandle } from './handle.ts';
import { checkTableName } from './settings.ts';
import { UserError } from '../../common/user-error.ts';

/** One cell per row, its value stripped: the row keys alone. */
const KEYS_ONLY = 'FirstKeyOnlyFilter() AND KeyOnlyFilter()';

export class YcsbTables implements YcsbOperations {
  private readonly prefix: string;

  constructor(private readonly hbase: HbaseHandle) {
    this.prefix = `${hbase.family}:`;
  }

  private columns(fields: readonly string[] | null): string[] | undefined {
    return fields === null ? undefined : fields.map((f) => this.prefix + f);
  }

  private cells(values: FieldMap): Cell[] {
    const cells: Cell[] = [];
    for (const field in values) cells.push({ column: this.prefix + field, value: values[field]! });
    return cells;
  }

  /** The row's cells of the YCSB family as a record. */
  private record(row: Row): FieldMap {
    const out: FieldMap = {};
    const skip = this.prefix.length;
    for (const cell of row.cells) if (cell.column.startsWith(this.prefix)) out[cell.column.slice(skip)] = cell.value;
    return out;
  }

  async prepare(schema: YcsbSchema): Promise<void> {
    const bad = checkTableName(schema.table);
    if (bad) throw new UserError(bad);
    await this.hbase.ensureTable(schema.table, [this.hbase.family]);
  }

  drop(schema: YcsbSchema): Promise<void> {
    return this.hbase.dropTable(schema.table);
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    const row = await this.hbase.get(table, key, this.columns(fields));
    return row === null || row.cells.length === 0 ? null : this.record(row);
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    if (fields !== null && fields.length === 0) {
      const rows = await this.hbase.scan(table, { startRow: startKey, limit: count, filter: KEYS_ONLY });
      return rows.map((row) => ({ key: row.key, fields: {} }));
    }
    const columns = this.columns(fields);
    const rows = await this.hbase.scan(table, { startRow: startKey, limit: count, ...(columns ? { columns } : {}) });
    return rows.map((row) => ({ key: row.key, fields: this.record(row) }));
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    await this.hbase.put(table, [{ key, cells: this.cells(values) }]);
    return true;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.hbase.put(table, [{ key, cells: this.cells(values) }]);
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    await this.hbase.put(
      table,
      records.map((r) => ({ key: r.key, cells: this.cells(r.fields) })),
    );
  }

  async delete(table: string, key: string): Promise<boolean> {
    await this.hbase.deleteRow(table, key);
    return true;
  }
}

/**
 * `basic`: YCSB's BasicDB. No server: every operation succeeds at once, so a workload can be
 * tried and the harness's own cost measured. Settings (YCSB's `basicdb.*` names accepted too):
 *   basic.verbose=true        print each operation on stderr, as BasicDB does
 *   basic.simulatedelay=<ms>  wait a random 0…ms before answering
 *   basic.store=true          keep records in memory, so reads return data, scans are ordered
 *                             and dataintegrity runs can verify
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parseSettings, setting } from '../../common/settings.ts';
import { docbenchVersion } from '../../version.ts';
import type { BatchInserter, FieldMap, KeyedRecord, Store, StoreFactory, StoreStats, YcsbSchema } from '../store.ts';

/** BasicDB's settings, under `basic.` or YCSB's own `basicdb.` prefix. */
const SETTINGS = {
  verbose: setting.boolean({ fallback: false, describe: 'print each operation on stderr' }),
  simulatedelay: setting.wholeNumber({ min: 0, fallback: 0, describe: 'wait a random 0…ms before answering' }),
  store: setting.boolean({
    fallback: false,
    describe: 'keep records in memory so reads, scans and integrity checks see data',
  }),
};

export class BasicStore implements Store<undefined>, BatchInserter {
  readonly name = 'basic';
  /** No scenario runs on BasicDB, so it has no scenario-facing handle. */
  readonly handle = undefined;
  private readonly verbose: boolean;
  private readonly delayMs: number;
  private readonly keep: boolean;
  private readonly tables = new Map<string, Map<string, FieldMap>>();
  private readonly counts: Record<string, number> = {};

  constructor(settings: Record<string, string>) {
    const s = parseSettings('basic', SETTINGS, settings, ['basic.', 'basicdb.']);
    this.verbose = s.verbose;
    this.delayMs = s.simulatedelay;
    this.keep = s.store;
  }

  async connect(): Promise<void> {}

  /** BasicDB has no tables. */
  async checkTable(_schema: YcsbSchema): Promise<void> {}

  async prepare(schema: YcsbSchema): Promise<void> {
    if (!this.tables.has(schema.table)) this.tables.set(schema.table, new Map());
  }

  async drop(schema: YcsbSchema): Promise<void> {
    this.tables.delete(schema.table);
  }

  async read(table: string, key: string, fields: readonly string[] | null): Promise<FieldMap | null> {
    await this.step('READ', `${table} ${key} ${fields ? `[${fields.join(' ')}]` : '<all fields>'}`);
    if (!this.keep) return {};
    const record = this.table(table).get(key);
    if (!record) return null;
    return fields ? pick(record, fields) : { ...record };
  }

  async scan(table: string, startKey: string, count: number, fields: readonly string[] | null): Promise<KeyedRecord[]> {
    await this.step('SCAN', `${table} ${startKey} ${count}`);
    if (!this.keep) return [];
    // Sorting per scan is fine for a harness check store; it is not a performance path.
    const keys = [...this.table(table).keys()]
      .filter((k) => k >= startKey)
      .sort()
      .slice(0, count);
    return keys.map((key) => {
      const record = this.table(table).get(key)!;
      return { key, fields: fields ? pick(record, fields) : { ...record } };
    });
  }

  async update(table: string, key: string, values: FieldMap): Promise<boolean> {
    await this.step('UPDATE', `${table} ${key}`);
    if (this.keep) {
      const record = this.table(table).get(key);
      if (!record) return false;
      Object.assign(record, values);
    }
    return true;
  }

  async insert(table: string, key: string, values: FieldMap): Promise<void> {
    await this.step('INSERT', `${table} ${key}`);
    if (this.keep) this.table(table).set(key, { ...values });
  }

  async insertMany(table: string, records: readonly KeyedRecord[]): Promise<void> {
    await this.step('INSERT-BATCH', `${table} ${records.length} records`);
    if (this.keep) for (const r of records) this.table(table).set(r.key, { ...r.fields });
  }

  async delete(table: string, key: string): Promise<boolean> {
    await this.step('DELETE', `${table} ${key}`);
    return this.keep ? this.table(table).delete(key) : true;
  }

  async stats(): Promise<StoreStats> {
    let records = 0;
    for (const t of this.tables.values()) records += t.size;
    return {
      server: 'none (BasicDB)',
      serverVersion: docbenchVersion(),
      driver: 'none',
      ...(this.keep ? { recordCount: records } : {}),
      extra: { ...this.counts, keepsRecords: this.keep },
    };
  }

  async close(): Promise<void> {}

  private table(name: string): Map<string, FieldMap> {
    let table = this.tables.get(name);
    if (!table) {
      table = new Map();
      this.tables.set(name, table);
    }
    return table;
  }

  private async step(operation: string, detail: string): Promise<void> {
    this.counts[operation] = (this.counts[operation] ?? 0) + 1;
    if (this.verbose) process.stderr.write(`${operation.toLowerCase()} ${detail}\n`);
    if (this.delayMs > 0) await sleep(Math.random() * this.delayMs);
  }
}

function pick(record: FieldMap, fields: readonly string[]): FieldMap {
  const out: FieldMap = {};
  for (const f of fields) if (f in record) out[f] = record[f]!;
  return out;
}

export const createStore: StoreFactory<BasicStore> = (options) => new BasicStore(options.settings);

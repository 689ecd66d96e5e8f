/**
 * Persons on HBase, as an HBase application keeps them: one row per person in a table of one
 * column family, HBase's filters for a query without an index, and index tables the
 * application writes itself for one with (HBase has no secondary indexes).
 *
 * Row: key = the person's id; one column per field. Numbers are zero-padded to ten digits, so
 * that HBase's byte-wise comparisons order them as numbers (the usual order-preserving encoding
 * of a key-value store); in the nested shape an array is its JSON text. A set-valued attribute
 * (a pet, a Jedi power: one value, or every element of an array) also gets one empty marker
 * column per value, `pet=Penguin`: HBase's wide-row way to ask "has this value" with a filter.
 *
 * Without indexes (`filter-scan`): one scan of the whole table with the query as a filter in
 * HBase's filter language (SingleColumnValueFilter per condition, AND / OR), run in the region
 * server, so only matching rows travel; every row is still read.
 *
 * With indexes (`index-tables`): `<collection>_idx`, written with each person (index rows
 * first, then the person, so an index row may name a person not yet written, never the reverse;
 * the query drops ids whose row is missing). One row per person and index:
 *   all/<salary>/<id>                every person
 *   fax/<salary>/<id>                persons with a fax (exists conditions)
 *   pet=<value>/<salary>/<id>        per value of a set-valued field (value conditions)
 * each holding the other range fields (age) as covered columns. A query picks the narrowest
 * index (a value, else an exists, else `all`), scans its salary range as a row-key range, with
 * the age condition as a filter on the covered column, then multi-gets the persons. Which
 * indexes exist comes from the query definitions.
 *
 * Plans: HBase has no EXPLAIN; each scan's table, row range and filter, with rows scanned
 * (counted by a key-only scan of the same range) against rows returned (hbase/explain.ts).
 * Size: store files of the table as the status resource reports them (whole MB per region).
 */
import { filterString, type HbaseHandle, type ScanRequest } from '../../../src/stores/hbase/handle.ts';
import type { Cell, Row } from '../../../src/stores/hbase/cellset.ts';
import { tableSizes } from '../../../src/stores/hbase/stats.ts';
import { combineEvidence } from '../../../src/stores/query-plan.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import type {
  DialectContext,
  DiskSize,
  PersonsDialect,
  PersonsDialectDefinition,
  QueryExplainer,
  QueryVariant,
} from '../dialect.ts';
import { FIELD, OPTIONAL_FIELDS, type Person, type PersonRecord } from '../model.ts';
import { queriedFields, type Condition, type PersonsQuery, type RangeCondition } from '../queries.ts';

const FAMILY = 'p';
const INDEX_FAMILY = 'i';
/** Persons per multi-get (the row keys travel in the request line). */
const GET_CHUNK = 100;

export const dialect: PersonsDialectDefinition<'hbase'> = {
  store: 'hbase',
  create: (handle, context) => new HbasePersons(handle, context),
};

const pad = (n: number) => String(n).padStart(10, '0');
const marker = (field: string, value: string) => `${field}=${value}`;
const column = (qualifier: string) => `${FAMILY}:${qualifier}`;
const RANGE_FIELDS = new Set<string>([FIELD.salary, FIELD.age]);
const SET_FIELDS = new Set<string>([FIELD.pet, FIELD.jediPower]);

/** A person as cells: fields, then one marker per value of a set-valued field. */
function cellsOf(person: Person): Cell[] {
  const cells: Cell[] = [];
  for (const [field, value] of Object.entries(person)) {
    cells.push({
      column: column(field),
      value: Array.isArray(value)
        ? JSON.stringify(value)
        : RANGE_FIELDS.has(field)
          ? pad(value as number)
          : String(value),
    });
    if (SET_FIELDS.has(field))
      for (const v of new Set(Array.isArray(value) ? value : [value]))
        cells.push({ column: column(marker(field, String(v))), value: '' });
  }
  return cells;
}

function personOf(row: Row, nested: boolean): Person {
  const doc: Record<string, unknown> = {};
  for (const { column: c, value } of row.cells) {
    const field = c.slice(FAMILY.length + 1);
    if (field.includes('=')) continue;
    if (RANGE_FIELDS.has(field)) doc[field] = Number(value);
    else if (nested && (OPTIONAL_FIELDS as readonly string[]).includes(field)) doc[field] = JSON.parse(value);
    else doc[field] = value;
  }
  return doc as unknown as Person;
}

/** One condition in HBase's filter language, on the person row (or, for `family`, an index row's covered column). */
function conditionFilter(c: Condition, family = FAMILY): string {
  const scvf = (qualifier: string, op: string, value: string) =>
    `SingleColumnValueFilter(${filterString(family)},${filterString(qualifier)},${op},${filterString(`binary:${value}`)},true,true)`;
  switch (c.kind) {
    case 'range':
      return [
        c.above !== undefined ? scvf(c.field, '>', pad(c.above)) : '',
        c.below !== undefined ? scvf(c.field, '<', pad(c.below)) : '',
      ]
        .filter(Boolean)
        .join(' AND ');
    case 'exists':
      return scvf(c.field, '>=', '');
    case 'anyOf':
      return `(${c.values.map((v) => scvf(marker(c.field, v), '=', '')).join(' OR ')})`;
  }
}

/** The index a person is entered in for a condition, by its prefix. */
interface IndexScan {
  prefix: string;
  range: RangeCondition;
  /** Conditions left for the covered columns. */
  rest: RangeCondition[];
}

class HbasePersons implements PersonsDialect, QueryExplainer {
  readonly variants: readonly QueryVariant[];
  readonly noCompaction =
    'none run: HBase compacts store files in the background, and its REST gateway has no call to start a major compaction';
  private readonly table: string;
  private readonly indexTable: string;
  private readonly nested: boolean;
  /** The field ordering every index row (the first range condition of the queries: salary). */
  private readonly keyField: string;
  private readonly coveredFields: string[];
  private readonly existsFields: string[];

  constructor(
    private readonly hbase: HbaseHandle,
    private readonly context: DialectContext,
  ) {
    this.table = context.collection;
    this.indexTable = `${context.collection}_idx`;
    this.nested = context.shape === 'nested';
    const fields = queriedFields();
    const ranges = fields.filter((c) => c.kind === 'range').map((c) => c.field);
    this.keyField = ranges[0]!;
    this.coveredFields = ranges.slice(1);
    this.existsFields = fields.filter((c) => c.kind === 'exists').map((c) => c.field);
    this.variants = context.indexes
      ? [
          {
            name: 'index-tables',
            description:
              'an index table the application writes with each person (row key prefix/salary/id, age covered): a row-key range scan with an age filter, then a multi-get of the persons',
          },
        ]
      : [
          {
            name: 'filter-scan',
            description:
              'one scan of the whole table with the conditions as SingleColumnValueFilters, run in the region server',
          },
        ];
  }

  async drop(): Promise<void> {
    await this.hbase.dropTable(this.table);
    await this.hbase.dropTable(this.indexTable);
  }

  async prepare(): Promise<void> {
    await this.hbase.ensureTable(this.table, [FAMILY]);
    if (this.context.indexes) await this.hbase.ensureTable(this.indexTable, [INDEX_FAMILY]);
  }

  async insertMany(records: readonly PersonRecord[]): Promise<void> {
    if (this.context.indexes)
      await this.hbase.put(
        this.indexTable,
        records.flatMap((r) => this.indexRows(r)),
      );
    await this.hbase.put(
      this.table,
      records.map((r) => ({ key: r.id, cells: cellsOf(r.person) })),
    );
  }

  async insertOne(record: PersonRecord): Promise<void> {
    await this.insertMany([record]);
  }

  /** The person's index rows: `all`, one per present exists-field, one per value of a set-valued field. */
  private indexRows({ id, person }: PersonRecord): Row[] {
    const doc = person as unknown as Record<string, unknown>;
    const prefixes = ['all', ...this.existsFields.filter((f) => doc[f] !== undefined)];
    for (const field of SET_FIELDS) {
      const value = doc[field];
      if (value !== undefined)
        for (const v of new Set(Array.isArray(value) ? value : [value])) prefixes.push(marker(field, String(v)));
    }
    const cells = this.coveredFields.map((f) => ({ column: `${INDEX_FAMILY}:${f}`, value: pad(doc[f] as number) }));
    return prefixes.map((prefix) => ({ key: `${prefix}/${pad(doc[this.keyField] as number)}/${id}`, cells }));
  }

  async query(variant: string, query: PersonsQuery): Promise<PersonRecord[]> {
    if (variant === 'filter-scan')
      return (await this.hbase.scan(this.table, this.filterScan(query))).map((row) => ({
        id: row.key,
        person: personOf(row, this.nested),
      }));
    if (variant === 'index-tables') return this.fetch(await this.indexIds(query));
    throw new Error(`hbase: unknown variant "${variant}"`);
  }

  private filterScan(query: PersonsQuery): ScanRequest {
    return { filter: query.where.map((c) => conditionFilter(c)).join(' AND ') };
  }

  /** The index scans serving a query: a value index (one per value), else an exists index, else `all`; the key field's range as rows. */
  private indexScans(query: PersonsQuery): IndexScan[] {
    const ranges = query.where.filter((c): c is RangeCondition => c.kind === 'range');
    const range = ranges.find((c) => c.field === this.keyField) ?? {
      kind: 'range',
      field: this.keyField as RangeCondition['field'],
    };
    const rest = ranges.filter((c) => c !== range);
    const anyOf = query.where.find((c) => c.kind === 'anyOf');
    const exists = query.where.find((c) => c.kind === 'exists');
    const prefixes =
      anyOf?.kind === 'anyOf' ? anyOf.values.map((v) => marker(anyOf.field, v)) : exists ? [exists.field] : ['all'];
    return prefixes.map((prefix) => ({ prefix, range, rest }));
  }

  private indexRequest(scan: IndexScan): ScanRequest {
    const { prefix, range, rest } = scan;
    // Values are whole numbers: "above 18500" starts at 18501; "below 35000" stops before 35000.
    const request: ScanRequest = {
      startRow: `${prefix}/${range.above === undefined ? '' : pad(range.above + 1)}`,
      stopRow: range.below === undefined ? `${prefix}0` : `${prefix}/${pad(range.below)}`,
    };
    if (rest.length > 0) request.filter = rest.map((c) => conditionFilter(c, INDEX_FAMILY)).join(' AND ');
    return request;
  }

  private async indexIds(query: PersonsQuery): Promise<string[]> {
    const ids = new Set<string>();
    for (const scan of this.indexScans(query))
      for (const row of await this.hbase.scan(this.indexTable, {
        ...this.indexRequest(scan),
        columns: [`${INDEX_FAMILY}:${this.coveredFields[0] ?? this.keyField}`],
      }))
        ids.add(row.key.slice(row.key.lastIndexOf('/') + 1));
    return [...ids];
  }

  /** The persons of `ids` that exist, multi-get in chunks. */
  private async fetch(ids: readonly string[]): Promise<PersonRecord[]> {
    const found: PersonRecord[] = [];
    for (let start = 0; start < ids.length; start += GET_CHUNK) {
      for (const row of await this.hbase.multiGet(this.table, ids.slice(start, start + GET_CHUNK)))
        found.push({ id: row.key, person: personOf(row, this.nested) });
    }
    return found;
  }

  async explain(variant: string, query: PersonsQuery): Promise<ScenarioPlan> {
    if (variant === 'filter-scan')
      return { ...(await this.hbase.explainScan(this.table, this.filterScan(query))), indexExpected: false };
    if (variant !== 'index-tables') throw new Error(`hbase: unknown variant "${variant}"`);
    const steps = [];
    for (const scan of this.indexScans(query)) {
      const plan = await this.hbase.explainScan(this.indexTable, this.indexRequest(scan));
      steps.push({
        label: `index ${scan.prefix}`,
        plan: {
          ...plan,
          access: 'index' as const,
          used: [`${this.indexTable} ${scan.prefix}/…`],
          keysExamined: plan.rowsScanned,
          documentsExamined: 0,
        },
      });
    }
    const persons = await this.query(variant, query);
    steps.push({
      label: 'multi-get',
      plan: {
        access: 'key' as const,
        used: [`${this.table} (row keys)`],
        documentsExamined: persons.length,
        returned: persons.length,
        warnings: [],
        source: 'the multi-get of the ids the index scans returned',
        raw: `GET ${this.table}/multiget of ${persons.length} ids`,
      },
    });
    return { ...combineEvidence(steps), indexExpected: true };
  }

  async sizeOnDisk(): Promise<DiskSize> {
    const sizes = await tableSizes(this.hbase, [this.table]);
    const where = `${sizes.regions} region(s); ${sizes.memStoreSizeMB} MB still in memstores`;
    if (sizes.storeFileSizeMB === 0)
      return {
        method: `unavailable: HBase's status resource gives store file sizes in whole MB per region, and ${this.table}'s are under 1 MB (${where})`,
      };
    return {
      bytes: sizes.storeFileSizeMB * 1024 * 1024,
      method: `store files of ${this.table} from HBase's status resource, in whole MB per region (${where})`,
    };
  }
}

/**
 * What HBase scenario dialects (and the YCSB adapter) work with: the gateway's resources as
 * HBase's own operations, on tables of the configured namespace.
 *
 *   get / multiGet        GET /<table>/<row>[/<columns>], GET /<table>/multiget?row=…
 *   put                   PUT /<table>/<row> with one CellSet (several rows: one batch of Puts)
 *   checkAndPut           PUT /<table>/<row>?check=put: the last cell is the check (an empty
 *                         value means "the cell is absent"), HBase's checkAndMutate
 *   increment             PUT /<table>/<row>?check=increment: HBase's atomic Increment of
 *                         8-byte counters, one row per request (the gateway's rule), each cell's
 *                         value the amount as decimal text
 *   deleteRow             DELETE /<table>/<row>[/<columns>]
 *   scan                  GET /<table>/*?startrow=&endrow=&limit=&column=&filter=: the gateway's
 *                         stateless scanner, one request, rows in row-key order, filters in
 *                         HBase's filter language run in the region server
 *   ensureTable / dropTable / tableExists / families   the schema resource
 */
import {
  CONTENT_TYPE,
  decodeCellSet,
  decodeJson,
  encodeCellSet,
  type Cell,
  type Row,
  type WireFormat,
} from './cellset.ts';
import { gatewayText, HbaseRestError, RestClient } from './connection.ts';
import { explainScan, type ScanPlan } from './explain.ts';

export interface ScanRequest {
  /** First row key (inclusive); absent: the table's start. */
  startRow?: string;
  /** Row key to stop before (exclusive); absent: the table's end. */
  stopRow?: string;
  /** At most this many rows. */
  limit?: number;
  /** Only these columns (`family:qualifier`). */
  columns?: readonly string[];
  /** A filter in HBase's filter language, run in the region server. */
  filter?: string;
}

/** A string in HBase's filter language: single quotes doubled. */
export const filterString = (text: string) => `'${text.replace(/'/g, "''")}'`;

export class HbaseHandle {
  private readonly contentType: string;
  private readonly tablePaths = new Map<string, string>();

  constructor(
    readonly client: RestClient,
    /** The namespace tables live in (the URL's path, else `default`). */
    readonly namespace: string,
    /** The YCSB table's column family (`hbase.columnfamily`). */
    readonly family: string,
    /** Wire format of rows (`hbase.format`). */
    readonly format: WireFormat,
  ) {
    this.contentType = CONTENT_TYPE[format];
  }

  /** The table's name as HBase knows it: `table` in the default namespace, else `namespace:table`. */
  qualified(table: string): string {
    return this.namespace === 'default' ? table : `${this.namespace}:${table}`;
  }

  tablePath(table: string): string {
    let path = this.tablePaths.get(table);
    if (path === undefined) this.tablePaths.set(table, (path = `/${encodeURIComponent(this.qualified(table))}`));
    return path;
  }

  rowPath(table: string, key: string, columns?: readonly string[]): string {
    const base = `${this.tablePath(table)}/${encodeURIComponent(key)}`;
    return columns && columns.length > 0 ? `${base}/${columns.map(encodeURIComponent).join(',')}` : base;
  }

  /** One row (every column, or only `columns`); null when it does not exist. */
  async get(table: string, key: string, columns?: readonly string[]): Promise<Row | null> {
    const reply = await this.client.request('GET', this.rowPath(table, key, columns), { accept: this.contentType });
    if (reply.status === 404) return null;
    if (reply.status !== 200) throw new HbaseRestError(reply.status, `GET ${table}/${key}`, gatewayText(reply.body));
    return decodeCellSet(this.format, reply.body)[0] ?? null;
  }

  /**
   * The rows of `keys` that exist, in one request (GET multiget), in the order the gateway returns
   * them. With `columns`, each row is asked for as `<key>/<columns>`, which the gateway splits at
   * the first `/`: a key holding `/` can only be fetched whole.
   */
  async multiGet(table: string, keys: readonly string[], columns?: readonly string[]): Promise<Row[]> {
    if (keys.length === 0) return [];
    const params = keys
      .map((k) => `row=${encodeURIComponent(columns && columns.length > 0 ? `${k}/${columns.join(',')}` : k)}`)
      .join('&');
    const reply = await this.client.request('GET', `${this.tablePath(table)}/multiget?${params}`, {
      accept: this.contentType,
    });
    if (reply.status === 404) return [];
    if (reply.status !== 200) throw new HbaseRestError(reply.status, `GET ${table}/multiget`, gatewayText(reply.body));
    return decodeCellSet(this.format, reply.body);
  }

  /** Write rows: one Put each, sent as one batch. */
  async put(table: string, rows: readonly Row[]): Promise<void> {
    if (rows.length === 0) return;
    await this.client.expect('PUT', this.rowPath(table, rows[0]!.key), [200], {
      body: encodeCellSet(this.format, rows),
      contentType: this.contentType,
    });
  }

  /**
   * HBase's checkAndPut: write `cells` only if the row's `check` column holds `check.value` (an
   * empty value: only if the column is absent). `cells` must include the check column (the
   * gateway's rule). False when the check failed.
   */
  async checkAndPut(table: string, key: string, cells: readonly Cell[], check: Cell): Promise<boolean> {
    const body = encodeCellSet(this.format, [{ key, cells: [...cells, check] }]);
    const reply = await this.client.expect('PUT', `${this.rowPath(table, key)}?check=put`, [200, 304], {
      body,
      contentType: this.contentType,
    });
    return reply.status === 200;
  }

  /** Add each cell's amount (decimal text, may be negative) to the row's counter in that column. */
  async increment(table: string, key: string, cells: readonly Cell[]): Promise<void> {
    await this.client.expect('PUT', `${this.rowPath(table, key)}?check=increment`, [200], {
      body: encodeCellSet(this.format, [{ key, cells: [...cells] }]),
      contentType: this.contentType,
    });
  }

  /** Delete the row, or only these columns of it. */
  async deleteRow(table: string, key: string, columns?: readonly string[]): Promise<void> {
    await this.client.expect('DELETE', this.rowPath(table, key, columns), [200]);
  }

  /** Rows of a range in row-key order, in one request (see the module comment). */
  async scan(table: string, request: ScanRequest): Promise<Row[]> {
    const reply = await this.client.request('GET', this.scanPath(table, request), { accept: 'application/json' });
    if (reply.status === 404 && reply.body.toString('utf8', 0, 200).includes('TableNotFound')) {
      throw new HbaseRestError(404, `scan of ${table}`, `table ${this.qualified(table)} does not exist`);
    }
    if (reply.status === 404 || reply.status === 204) return [];
    if (reply.status !== 200) throw new HbaseRestError(reply.status, `scan of ${table}`, gatewayText(reply.body));
    return decodeJson(reply.body);
  }

  scanPath(table: string, request: ScanRequest): string {
    const params: string[] = [];
    if (request.startRow !== undefined) params.push(`startrow=${encodeURIComponent(request.startRow)}`);
    if (request.stopRow !== undefined) params.push(`endrow=${encodeURIComponent(request.stopRow)}`);
    if (request.limit !== undefined) params.push(`limit=${request.limit}`);
    for (const column of request.columns ?? []) params.push(`column=${encodeURIComponent(column)}`);
    if (request.filter !== undefined) params.push(`filter=${encodeURIComponent(request.filter)}`);
    return `${this.tablePath(table)}/*${params.length > 0 ? `?${params.join('&')}` : ''}`;
  }

  /** How a scan reads: its table, row range and filter, and the rows it passes over against those it returns (explain.ts). */
  explainScan(table: string, request: ScanRequest): Promise<ScanPlan> {
    return explainScan(this, table, request);
  }

  async tableExists(table: string): Promise<boolean> {
    return (
      (await this.client.request('GET', `${this.tablePath(table)}/schema`, { accept: 'application/json' })).status ===
      200
    );
  }

  /** The table's column families, or null when it does not exist. */
  async families(table: string): Promise<string[] | null> {
    const reply = await this.client.request('GET', `${this.tablePath(table)}/schema`, { accept: 'application/json' });
    if (reply.status === 404) return null;
    if (reply.status !== 200) throw new HbaseRestError(reply.status, `GET ${table}/schema`, gatewayText(reply.body));
    const schema = JSON.parse(reply.body.toString('utf8')) as { ColumnSchema?: { name: string }[] };
    return (schema.ColumnSchema ?? []).map((c) => c.name);
  }

  /** Create the namespace (unless `default`) and the table with these families, when missing. */
  async ensureTable(table: string, families: readonly string[]): Promise<void> {
    await this.ensureNamespace();
    if (await this.tableExists(table)) return;
    const body = JSON.stringify({ name: this.qualified(table), ColumnSchema: families.map((name) => ({ name })) });
    // 201 created; 200 when another client created it meanwhile (the gateway then alters it to the same schema).
    await this.client.expect('PUT', `${this.tablePath(table)}/schema`, [200, 201], {
      body,
      contentType: 'application/json',
      timeoutMs: 120_000,
    });
  }

  /** Disable and delete the table and its data; fine when it does not exist. */
  async dropTable(table: string): Promise<void> {
    if (!(await this.tableExists(table))) return;
    await this.client.expect('DELETE', `${this.tablePath(table)}/schema`, [200, 404], { timeoutMs: 120_000 });
  }

  private async ensureNamespace(): Promise<void> {
    if (this.namespace === 'default') return;
    const path = `/namespaces/${encodeURIComponent(this.namespace)}`;
    if ((await this.client.request('GET', path, { accept: 'application/json' })).status === 200) return;
    await this.client.expect('POST', path, [200, 201], { body: '{}', contentType: 'application/json' });
  }
}

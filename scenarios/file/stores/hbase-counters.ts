/**
 * Counter rows read back from HBase. An Increment stores its counter as an 8-byte big-endian
 * long, which the client's CellSet decoding (text on docbench's side) would garble: the scan is
 * asked for in the gateway's JSON, where every value is base64, and each value decoded as bytes.
 */
import { gatewayText, HbaseRestError } from '../../../src/stores/hbase/connection.ts';
import type { HbaseHandle } from '../../../src/stores/hbase/handle.ts';
import { COUNT_COLUMN, SUM_COLUMN } from './hbase-index.ts';

export interface CounterRow {
  key: string;
  count: number;
  sum: number;
}

interface JsonCells {
  Row?: { key: string; Cell?: { column: string; $?: string }[] }[];
}

const text = (b64: string) => Buffer.from(b64, 'base64').toString('utf8');

/** A counter's value; a cell that is no 8-byte counter is a mistake worth naming. */
function long(b64: string | undefined, where: string): number {
  const bytes = Buffer.from(b64 ?? '', 'base64');
  if (bytes.length !== 8) throw new Error(`hbase: ${where} holds ${bytes.length} bytes, not an 8-byte counter`);
  return Number(bytes.readBigInt64BE());
}

/** The counter rows of a key range, in row-key order. */
export async function readCounters(
  hbase: HbaseHandle,
  table: string,
  range: { startRow: string; stopRow: string },
): Promise<CounterRow[]> {
  const reply = await hbase.client.request(
    'GET',
    hbase.scanPath(table, { ...range, columns: [COUNT_COLUMN, SUM_COLUMN] }),
    { accept: 'application/json' },
  );
  if (reply.status === 204 || (reply.status === 404 && !reply.body.toString('utf8', 0, 200).includes('TableNotFound')))
    return [];
  if (reply.status !== 200) throw new HbaseRestError(reply.status, `scan of ${table}`, gatewayText(reply.body));
  const body = reply.body.length === 0 ? {} : (JSON.parse(reply.body.toString('utf8')) as JsonCells);
  return (body.Row ?? []).map((row) => {
    const key = text(row.key);
    const cell = (column: string) => row.Cell?.find((c) => text(c.column) === column)?.$;
    return {
      key,
      count: long(cell(COUNT_COLUMN), `${table} ${key} ${COUNT_COLUMN}`),
      sum: long(cell(SUM_COLUMN), `${table} ${key} ${SUM_COLUMN}`),
    };
  });
}

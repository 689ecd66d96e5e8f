/**
 * The REST gateway's CellSet, the one body its row, multi-get and scan resources read and write,
 * in its two encodings:
 *
 *   - protobuf (`application/x-protobuf`), the gateway's CellSetMessage.proto:
 *       CellSet { repeated Row rows = 1; }
 *       Row     { required bytes key = 1; repeated Cell values = 2; }
 *       Cell    { optional bytes row = 1; optional bytes column = 2; optional int64 timestamp = 3; optional bytes data = 4; }
 *     Four messages of bytes fields need no protobuf library: a few lines of varints and
 *     length-prefixed fields, reading every string straight out of the reply buffer.
 *   - JSON (`application/json`): `{"Row":[{"key":b64,"Cell":[{"column":b64,"$":b64}]}]}`, keys,
 *     columns and values base64 (the gateway's JSON cannot carry raw bytes).
 *
 * Keys, columns (`family:qualifier`) and values are UTF-8 strings on docbench's side.
 */

export interface Cell {
  /** `family:qualifier`. */
  column: string;
  value: string;
}

export interface Row {
  key: string;
  cells: Cell[];
}

export type WireFormat = 'protobuf' | 'json';
export const CONTENT_TYPE: Record<WireFormat, string> = {
  protobuf: 'application/x-protobuf',
  json: 'application/json',
};

// ---- protobuf ----------------------------------------------------------------------------

const varintSize = (n: number) => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);
/** Tag byte + length + bytes of a length-delimited field. */
const fieldSize = (length: number) => 1 + varintSize(length) + length;

function writeVarint(buf: Buffer, at: number, n: number): number {
  while (n >= 0x80) {
    buf[at++] = (n & 0x7f) | 0x80;
    n >>>= 7;
  }
  buf[at++] = n;
  return at;
}

/** The rows as a protobuf CellSet. */
export function encodeProtobuf(rows: readonly Row[]): Buffer {
  // Sizes first (protobuf prefixes every message with its length), then one buffer written once.
  const keyBytes: number[] = [];
  const cellSizes: number[][] = [];
  const rowSizes: number[] = [];
  let total = 0;
  for (const row of rows) {
    const k = Buffer.byteLength(row.key);
    keyBytes.push(k);
    let rowSize = fieldSize(k);
    const sizes: number[] = [];
    for (const cell of row.cells) {
      const size = fieldSize(Buffer.byteLength(cell.column)) + fieldSize(Buffer.byteLength(cell.value));
      sizes.push(size);
      rowSize += fieldSize(size);
    }
    cellSizes.push(sizes);
    rowSizes.push(rowSize);
    total += fieldSize(rowSize);
  }
  const buf = Buffer.allocUnsafe(total);
  let at = 0;
  const bytesField = (tag: number, text: string) => {
    buf[at++] = tag;
    at = writeVarint(buf, at, Buffer.byteLength(text));
    at += buf.write(text, at);
  };
  rows.forEach((row, r) => {
    buf[at++] = 0x0a; // CellSet.rows
    at = writeVarint(buf, at, rowSizes[r]!);
    bytesField(0x0a, row.key); // Row.key
    row.cells.forEach((cell, c) => {
      buf[at++] = 0x12; // Row.values
      at = writeVarint(buf, at, cellSizes[r]![c]!);
      bytesField(0x12, cell.column); // Cell.column
      bytesField(0x22, cell.value); // Cell.data
    });
  });
  return buf;
}

/** A protobuf CellSet as rows (fields the gateway may add, such as timestamps, are skipped). */
export function decodeProtobuf(buf: Buffer): Row[] {
  const rows: Row[] = [];
  let at = 0;
  const readVarint = (): number => {
    let n = 0;
    let shift = 0;
    let byte: number;
    do {
      byte = buf[at++]!;
      n += (byte & 0x7f) * 2 ** shift;
      shift += 7;
    } while (byte & 0x80);
    return n;
  };
  /** Skip a field of wire type `type` whose tag was read. */
  const skip = (type: number) => {
    if (type === 0) readVarint();
    else if (type === 1) at += 8;
    else if (type === 2) at += readVarint();
    else if (type === 5) at += 4;
    else throw new Error(`hbase: the gateway sent a protobuf CellSet with wire type ${type}`);
  };
  while (at < buf.length) {
    const tag = readVarint();
    if (tag !== 0x0a) {
      skip(tag & 7);
      continue;
    }
    const rowEnd = readVarint() + at;
    const row: Row = { key: '', cells: [] };
    while (at < rowEnd) {
      const rowTag = readVarint();
      if (rowTag === 0x0a) {
        const length = readVarint();
        row.key = buf.toString('utf8', at, at + length);
        at += length;
      } else if (rowTag === 0x12) {
        const cellEnd = readVarint() + at;
        let column = '';
        let value = '';
        while (at < cellEnd) {
          const cellTag = readVarint();
          if (cellTag === 0x12 || cellTag === 0x22) {
            const length = readVarint();
            const text = buf.toString('utf8', at, at + length);
            at += length;
            if (cellTag === 0x12) column = text;
            else value = text;
          } else skip(cellTag & 7);
        }
        row.cells.push({ column, value });
      } else skip(rowTag & 7);
    }
    rows.push(row);
  }
  return rows;
}

// ---- JSON --------------------------------------------------------------------------------

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
const unb64 = (text: string) => Buffer.from(text, 'base64').toString('utf8');

interface JsonCellSet {
  Row?: { key: string; Cell?: { column: string; $?: string }[] }[];
}

export function encodeJson(rows: readonly Row[]): Buffer {
  const body: JsonCellSet = {
    Row: rows.map((row) => ({
      key: b64(row.key),
      Cell: row.cells.map((c) => ({ column: b64(c.column), $: b64(c.value) })),
    })),
  };
  return Buffer.from(JSON.stringify(body));
}

export function decodeJson(buf: Buffer): Row[] {
  if (buf.length === 0) return [];
  const body = JSON.parse(buf.toString('utf8')) as JsonCellSet;
  return (body.Row ?? []).map((row) => ({
    key: unb64(row.key),
    cells: (row.Cell ?? []).map((c) => ({ column: unb64(c.column), value: unb64(c.$ ?? '') })),
  }));
}

export function encodeCellSet(format: WireFormat, rows: readonly Row[]): Buffer {
  return format === 'protobuf' ? encodeProtobuf(rows) : encodeJson(rows);
}

export function decodeCellSet(format: WireFormat, buf: Buffer): Row[] {
  return format === 'protobuf' ? decodeProtobuf(buf) : decodeJson(buf);
}

/**
 * The HBase scenario-file dialect's row keys without a server: HBase compares row keys byte by
 * byte, so the encoded values must sort (as UTF-8 bytes) as the oracle orders the values, in
 * both directions and one after another (prefix-free); and a query's row-key range must hold
 * exactly the index rows of the documents the oracle finds, in the oracle's order (a range off
 * the order tested on the covered value as the region server's filter compares it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Doc, Scalar, Value } from '../../scenarios/file/generator.ts';
import { parseScenario } from '../../scenarios/file/load.ts';
import type { FindQuery } from '../../scenarios/file/model.ts';
import { Oracle } from '../../scenarios/file/oracle.ts';
import { indexedOf, indexKeys, meetsCovered, rangeOf } from '../../scenarios/file/stores/hbase-index.ts';
import { keyPart } from '../../scenarios/file/stores/hbase-keys.ts';

/** HBase's order: unsigned bytes. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
const byValue = (a: Scalar, b: Scalar) => (a < b ? -1 : a > b ? 1 : 0);

const NUMBERS = [-1e12, -250.5, -3, -1, -0.25, 0, 0.001, 1, 2, 9.99, 10, 255, 256, 65536, 1e15];
const TEXTS = [
  '',
  ' ',
  '!',
  '"',
  'a',
  'a ',
  'a!',
  'a"',
  'a\tb',
  'aa',
  'ab',
  'abc',
  'b',
  'Z',
  'z',
  'é',
  'éa',
  '中文',
  '2024-01-01T00:00:00.000Z',
  '2024-06-30T23:59:59.999Z',
];

describe('HBase scenario-file keys: order-preserving and prefix-free', () => {
  for (const [kind, values] of [
    ['numbers', NUMBERS],
    ['texts', TEXTS],
    ['booleans', [false, true]],
  ] as const) {
    it(`${kind} sort as bytes as they sort as values, ascending and descending`, () => {
      const sorted = [...(values as readonly Scalar[])].sort(byValue);
      assert.deepEqual(
        [...sorted].sort((a, b) => byBytes(keyPart(a), keyPart(b))),
        sorted,
      );
      assert.deepEqual(
        [...sorted].sort((a, b) => byBytes(keyPart(a, true), keyPart(b, true))),
        [...sorted].reverse(),
      );
    });

    it(`${kind}: pairs of components sort by the first, then the second`, () => {
      const pairs = (values as readonly Scalar[]).flatMap((a) =>
        (values as readonly Scalar[]).map((b) => [a, b] as const),
      );
      const expected = [...pairs].sort((x, y) => byValue(x[0], y[0]) || -byValue(x[1], y[1]));
      const got = [...pairs].sort((x, y) =>
        byBytes(keyPart(x[0]) + keyPart(x[1], true), keyPart(y[0]) + keyPart(y[1], true)),
      );
      assert.deepEqual(got, expected);
    });
  }
});

const FILE = `name: keys
seed: 7
collections:
  items:
    count: 300
    fields:
      shop: { type: enum, values: [north, south, 'east side'] }
      tags: { type: array, of: { type: enum, values: [a, b, c] }, min: 0, max: 2 }
      price: { type: decimal, min: -50, max: 50, scale: 2 }
      qty: { type: int, min: 0, max: 5 }
      title: { type: faker, method: lorem.words, args: [2] }
      at: { type: date, from: 2024-01-01, to: 2024-12-31 }
queries:
  newest: { collection: items, filter: { shop: $s, at: { $lte: $to } }, sort: { at: -1 }, params: { s: { type: pick, from: items.shop }, to: { type: date, from: 2024-03-01, to: 2024-10-01 } } }
  cheap: { collection: items, filter: { tags: $t, price: { $gt: $lo, $lt: $hi } }, sort: { price: 1 }, params: { t: { type: pick, from: items.tags }, lo: { type: decimal, min: -40, max: 0 }, hi: { type: decimal, min: 0, max: 40 } } }
  by-title: { collection: items, filter: { qty: { $gte: 2 } }, sort: { title: 1, price: -1 } }
  window: { collection: items, filter: { at: { $gte: $from } }, params: { from: { type: date, from: 2024-01-01, to: 2024-12-31 } } }
  few-left: { collection: items, filter: { shop: $s, qty: { $lt: $q }, price: { $gte: $p } }, sort: { at: 1 }, params: { s: { type: pick, from: items.shop }, q: { type: int, min: 1, max: 4 }, p: { type: decimal, min: -30, max: 30 } } }
`;

describe("HBase scenario-file keys: a query's row-key range holds exactly its answer, in order", () => {
  const scenario = parseScenario(FILE, 'keys.yaml');
  const oracle = new Oracle(scenario);
  const docs = oracle.docs.get('items')!;
  for (const q of scenario.queries.values()) {
    it(q.name, () => {
      const indexed = indexedOf(q);
      if ('refused' in indexed) assert.fail(indexed.refused);
      assert.equal(indexed.covered.length, q.name === 'few-left' ? 2 : 0, 'a range off the order is a covered column');
      const rows: { key: string; id: string; doc: Doc }[] = docs.flatMap((d) =>
        indexKeys(indexed, d).map((key) => ({ key, id: String(d._id), doc: d })),
      );
      let found = 0;
      for (let k = 0; k < 8; k++) {
        const params = oracle.drawer.draw(q, k) as Record<string, Value>;
        const range = rangeOf(indexed, params);
        const inRange: typeof rows =
          range === null
            ? []
            : rows
                .filter(
                  (r) =>
                    byBytes(r.key, range.startRow) >= 0 &&
                    byBytes(r.key, range.stopRow) < 0 &&
                    meetsCovered(indexed, r.doc, params),
                )
                .sort((a, b) => byBytes(a.key, b.key));
        const answer = oracle.answer(q as FindQuery, params);
        assert.equal(answer.kind, 'rows');
        const expected = answer.kind === 'rows' ? answer.rows.map((r) => String(r._id)) : [];
        const got: string[] = inRange.map((r) => r.id);
        found += got.length;
        if ((q as FindQuery).order.length > 0) assert.deepEqual(got, expected, JSON.stringify(params));
        else assert.deepEqual([...got].sort(), [...expected].sort(), JSON.stringify(params));
      }
      assert.ok(found > 0, 'the parameter sets find something');
    });
  }
});

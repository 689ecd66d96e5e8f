/**
 * Text order on CouchDB against the oracle's: the order a real Apache CouchDB gave (answers
 * recorded once from one built from its sources: fixtures/couchdb/collation.json, which says
 * how) is ICU's, not code point order, so the CouchDB scenario-file dialect sorts only text whose
 * values order alike under both, and refuses the rest with the reason. The recorded ties show
 * rows with equal keys coming in id byte order, forwards and backwards, which is why the dialect
 * leaves the order's closing `_id` to the index. Redis's lexicographic members order as code
 * points do.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ResolvedPath } from '../../scenarios/file/fields.ts';
import { parseScenario } from '../../scenarios/file/load.ts';
import { dialect as couchdb } from '../../scenarios/file/stores/couchdb.ts';
import { collatesAsCodePoints } from '../../scenarios/file/stores/couchdb-mango.ts';
import { dialect as redis, lexMember } from '../../scenarios/file/stores/redis.ts';

const recorded = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'couchdb', 'collation.json'), 'utf8'),
) as { sortedByName: string[]; tiesAscending: string[]; tiesDescending: string[] };

/** Code point order: UTF-8 bytes compared (MongoDB's binary comparison, Redis's, HBase's). */
const byCodePoint = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
/** The recorded CouchDB order of some of its strings. */
const couchOrder = (values: readonly string[]) => recorded.sortedByName.filter((s) => values.includes(s));
const enumOf = (values: readonly string[]): ResolvedPath => ({
  path: 'f',
  leaf: { kind: 'scalar', type: 'string', required: true, values },
  arrays: [],
  required: true,
});

describe('CouchDB collation, as a real CouchDB answered', () => {
  it('mixed case is not code point order: apple < Banana < cherry', () => {
    const fruit = ['apple', 'Banana', 'cherry'];
    assert.deepEqual(couchOrder(fruit), ['apple', 'Banana', 'cherry']);
    assert.deepEqual([...fruit].sort(byCodePoint), ['Banana', 'apple', 'cherry']);
    assert.equal(collatesAsCodePoints(enumOf(fruit)), false);
  });

  it('text the dialect sorts orders as code points do; each class alone, not mixed', () => {
    const accepted = recorded.sortedByName.filter((s) => collatesAsCodePoints(enumOf([s])));
    const lower = accepted.filter((s) => s === s.toLowerCase());
    const upper = accepted.filter((s) => s === s.toUpperCase());
    assert.ok(lower.length >= 40 && upper.length >= 15, 'the fixture covers both classes');
    for (const values of [lower, upper]) {
      assert.equal(collatesAsCodePoints(enumOf(values)), true);
      assert.deepEqual(couchOrder(values), [...values].sort(byCodePoint));
    }
    const both = [...new Set([...lower, ...upper])];
    assert.notDeepEqual(couchOrder(both), [...both].sort(byCodePoint));
    assert.equal(collatesAsCodePoints(enumOf(both)), false);
  });

  it("'_' and accents are left out: ICU orders them otherwise", () => {
    for (const values of [
      ['a_b', 'a1'],
      ['emile', 'Émile', 'f'],
    ]) {
      assert.notDeepEqual(couchOrder(values), [...values].sort(byCodePoint));
      assert.equal(collatesAsCodePoints(enumOf(values)), false);
    }
  });

  it('dates and ids of one format order alike', () => {
    for (const pattern of [/^\d{4}-\d\d-\d\dT/, /^posts-\d{9}$/]) {
      const values = recorded.sortedByName.filter((s) => pattern.test(s));
      assert.ok(values.length >= 5);
      assert.deepEqual(values, [...values].sort(byCodePoint));
    }
  });

  it('rows with equal keys come in id byte order, reversed with the sort', () => {
    assert.deepEqual(recorded.tiesAscending, [...recorded.tiesAscending].sort(byCodePoint));
    assert.deepEqual(recorded.tiesDescending, [...recorded.tiesAscending].reverse());
  });
});

const FILE = `name: collation
collections:
  people:
    count: 50
    fields:
      name: { type: faker, method: person.fullName }
      city: { type: enum, values: [berlin, lyon, osaka] }
      code: { type: enum, values: [US, DE, FR, JP] }
      mixed: { type: enum, values: [alpha, Beta] }
      born: { type: date, from: 1950-01-01, to: 2005-12-31 }
      nick: { type: faker, method: person.firstName, present: 0.5 }
    indexes: [[city, born]]
queries:
  by-name: { collection: people, sort: { name: 1 }, limit: 5 }
  by-name-desc: { collection: people, filter: { city: $c }, sort: { name: -1 }, limit: 5, params: { c: { type: pick, from: people.city } } }
  by-city: { collection: people, sort: { city: 1 }, limit: 5 }
  by-code: { collection: people, sort: { code: -1 }, limit: 5 }
  by-mixed: { collection: people, sort: { mixed: 1 }, limit: 5 }
  by-born: { collection: people, filter: { city: $c }, sort: { born: -1 }, limit: 5, params: { c: { type: pick, from: people.city } } }
  by-nick: { collection: people, filter: { nick: { $exists: true } }, sort: { nick: 1 }, limit: 5 }
`;

describe('the dialects: a text sort runs in code point order or is refused', () => {
  const scenario = parseScenario(FILE, 'collation.yaml');
  // The translations need no connection: the dialects are made without one and never called.
  const couch = couchdb.create({} as never, { scenario });
  const lexical = redis.create({} as never, { scenario });

  it('CouchDB refuses free text and mixed case, runs the rest on the declared index where it fits', () => {
    for (const q of ['by-name', 'by-name-desc', 'by-mixed', 'by-nick']) {
      const t = couch.translations.get(q)!;
      assert.ok(!t.supported && /ICU collation \(apple < Banana < cherry\)/.test(t.reason), q);
    }
    for (const q of ['by-city', 'by-code']) assert.ok(couch.translations.get(q)!.supported, q);
    const born = couch.translations.get('by-born')!;
    assert.ok(born.supported && /sort \[city, born\] desc on the declared index/.test(born.description));
  });

  it('Redis sorts text by member: text, then id, bytes compared', () => {
    for (const q of ['by-name', 'by-name-desc', 'by-mixed', 'by-nick', 'by-city'])
      assert.match((lexical.translations.get(q) as { description: string }).description, /BYLEX/, q);
    const members = [
      ['Banana', 'p-2'],
      ['apple', 'p-1'],
      ['apple', 'p-0'],
      ['app', 'p-9'],
      ['app\0', 'p-3'],
      ['Émile', 'p-4'],
    ].map(([text, id]) => lexMember(text!, id!));
    const order = [...members].sort(byCodePoint).map((m) => m.replace(/\0\x01/g, '\\0').split('\0\0'));
    assert.deepEqual(order, [
      ['Banana', 'p-2'],
      ['app', 'p-9'],
      ['app\\0', 'p-3'],
      ['apple', 'p-0'],
      ['apple', 'p-1'],
      ['Émile', 'p-4'],
    ]);
  });
});

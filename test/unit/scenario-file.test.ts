/**
 * Scenario files without a server: the format's errors (one line with file:line:column and the
 * key), the JSON Schema, generation as a pure function of (seed, collection, index), the oracle
 * against hand-checked answers (MongoDB's array semantics, the tie rule, joins, groups), the
 * answer check catching a wrong order or a wrong field, the mix's write rule, each store's
 * translation or refusal with its reason, and the shipped examples and the one in docs/scenarios.md.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { canonical, checkAnswer, expectationOf } from '../../scenarios/file/answers.ts';
import { FILE_DIALECTS } from '../../scenarios/file/dialects.ts';
import type { Doc } from '../../scenarios/file/generator.ts';
import { loadScenario, parseScenario } from '../../scenarios/file/load.ts';
import { Oracle } from '../../scenarios/file/oracle.ts';
import { shapeOf } from '../../scenarios/file/stores/key-shape.ts';
import { gsiIndex, sqlppOf } from '../../scenarios/file/stores/couchbase-sqlpp.ts';
import { dialect as couchdb } from '../../scenarios/file/stores/couchdb.ts';
import { dialect as mongodb } from '../../scenarios/file/stores/mongodb.ts';
import { selectorOf } from '../../scenarios/file/stores/couchdb-mango.ts';
import { LOCAL_STORE_NAMES } from '../../src/stores/stores.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const work = mkdtempSync(join(tmpdir(), 'docbench-scenario-file-'));
after(() => rmSync(work, { recursive: true, force: true }));

const BASE = `name: unit
seed: 3
collections:
  authors:
    count: 20
    fields:
      name: { type: faker, method: person.fullName }
  posts:
    count: 200
    fields:
      author: { type: ref, collection: authors }
      tags: { type: array, of: { type: enum, values: [go, rust, js] }, min: 0, max: 2 }
      likes: { type: int, min: 0, max: 50 }
      score: { type: decimal, min: 0, max: 5, scale: 2 }
      published: { type: date, from: 2020-01-01, to: 2024-12-31 }
      stats: { type: object, fields: { views: { type: int, min: 0, max: 1000 }, shares: { type: int, min: 0, max: 9, present: 0.5 } } }
queries:
  by-tag:
    collection: posts
    filter: { tags: $tag }
    sort: { likes: -1 }
    limit: 7
    params: { tag: { type: pick, from: posts.tags } }
  per-author:
    collection: posts
    filter: { likes: { $gte: 10 } }
    group: { by: author, sum: score }
  with-author:
    collection: posts
    filter: { author: $a }
    limit: 3
    join: { from: authors, on: author, as: writer, project: [name] }
    params: { a: { type: pick, from: authors._id } }
writes:
  bump: { update: posts, set: [stats.shares] }
`;

const parse = (text: string) => parseScenario(text, 'unit.yaml');
const errorOf = (text: string): string => {
  try {
    parse(text);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('scenario files: one line with file:line:column and the key', () => {
  it('an unknown field, with a hint, at its line', () => {
    const text = BASE.replace('filter: { tags: $tag }', 'filter: { tgas: $tag }');
    assert.match(
      errorOf(text),
      /^unit\.yaml:20:21: queries\.by-tag\.filter\.tgas: posts have no field tgas \(did you mean tags\?\)$/,
    );
  });
  it('an unknown key, at the key', () =>
    assert.match(
      errorOf(BASE.replace('    limit: 7', '    limit: 7\n    colour: red')),
      /^unit\.yaml:23:5: queries\.by-tag\.colour: unknown key "colour"$/,
    ));
  it('a wrong generator type', () =>
    assert.match(
      errorOf(BASE.replace('{ type: int, min: 0, max: 50 }', '{ type: integer, min: 0, max: 50 }')),
      /^unit\.yaml:13:22: collections\.posts\.fields\.likes\.type: /,
    ));
  it('a missing collection', () =>
    assert.match(
      errorOf(BASE.replace('collection: authors }', 'collection: author }')),
      /collections\.posts\.fields\.author\.collection: no collection author \(did you mean authors\?\)/,
    ));
  it('an undeclared parameter', () =>
    assert.match(
      errorOf(BASE.replace('filter: { tags: $tag }', 'filter: { tags: $tg }')),
      /\$tg is no parameter of this query/,
    ));
  it('a literal of the wrong type', () =>
    assert.match(
      errorOf(BASE.replace('filter: { likes: { $gte: 10 } }', 'filter: { likes: { $gte: "10" } }')),
      /likes holds int values; got a string/,
    ));
  it('an unknown operator', () =>
    assert.match(
      errorOf(BASE.replace('filter: { likes: { $gte: 10 } }', 'filter: { likes: { $regex: a } }')),
      /\$regex is not supported/,
    ));
  it('a faker method that does not exist', () =>
    assert.match(
      errorOf(BASE.replace('person.fullName', 'person.fullNam')),
      /method: faker has no method person\.fullNam/,
    ));
  it('sorting by a field not every document has', () =>
    assert.match(
      errorOf(BASE.replace('sort: { likes: -1 }', 'sort: { stats.shares: -1 }')),
      /stats\.shares is not in every document: sort by a field every document has once, or require it in the filter \(stats\.shares: \{ \$exists: true \}\)/,
    ));
  it('sorting by a field the filter requires is fine', () => {
    for (const filter of [
      '{ tags: $tag, stats.shares: { $exists: true } }',
      '{ tags: $tag, stats.shares: { $gte: 1 } }',
    ])
      assert.equal(
        errorOf(
          BASE.replace('sort: { likes: -1 }', 'sort: { stats.shares: -1 }').replace(
            'filter: { tags: $tag }',
            `filter: ${filter}`,
          ),
        ),
        'no error',
      );
    assert.match(
      errorOf(
        BASE.replace('sort: { likes: -1 }', 'sort: { stats.shares: -1 }').replace(
          'filter: { tags: $tag }',
          'filter: { tags: $tag, $or: [{ stats.shares: { $exists: true } }, { likes: 1 }] }',
        ),
      ),
      /stats\.shares is not in every document/,
    );
  });
  it('proportions that do not sum to 1', () =>
    assert.match(
      errorOf(`${BASE}mix: { by-tag: 0.5, bump: 0.4 }\n`),
      /^unit\.yaml:\d+:\d+: mix: the proportions sum to 0\.9, expected 1$/,
    ));
  it('a mix that writes what its queries read', () =>
    assert.match(
      errorOf(`${BASE}mix: { by-tag: 0.5, bump: 0.5 }\n`),
      /mix\.bump: bump updates posts\.stats\.shares, which by-tag returns \(whole documents\): a mix may not write what its queries read/,
    ));
  it('invalid YAML', () => assert.match(errorOf('collections: [a'), /^unit\.yaml:\d+:\d+: not valid YAML: /));
  it('JSON as well, with its line', () => {
    const file = join(work, 'bad.json');
    writeFileSync(file, '{\n  "collections": {\n    "a": { "count": 0, "fields": {} }\n  }\n}\n');
    assert.throws(
      () => loadScenario(file),
      (e: Error) => /bad\.json:3:\d+: collections\.a\.count: /.test(e.message),
    );
  });
  it('the CLI: exit 2, one line, no stack', () => {
    const file = join(work, 'bad.yaml');
    writeFileSync(file, BASE.replace('max: 50 }', 'max: many }'));
    assertUserError(
      runDocbench(['scenario', file, '--stores', 'mongodb']),
      /bad\.yaml:13:40: collections\.posts\.fields\.likes\.max: /,
    );
  });
  it('docbench scenario --schema prints the JSON Schema', () => {
    const r = runDocbench(['scenario', '--schema']);
    assert.equal(r.code, 0, r.stderr);
    const schema = JSON.parse(r.stdout) as { type: string; properties: Record<string, unknown> };
    assert.equal(schema.type, 'object');
    for (const key of ['collections', 'queries', 'writes', 'mix', 'run']) assert.ok(key in schema.properties, key);
  });
});

describe('scenario files: generation and the oracle', () => {
  const scenario = parse(BASE);
  const oracle = new Oracle(scenario);
  const posts = oracle.docs.get('posts')!;

  it('a document is a pure function of (seed, collection, index)', () => {
    const again = parse(BASE);
    assert.deepEqual(again.collections.get('posts')!.generator.generate(17), posts[17]);
    assert.equal(posts[17]!._id, 'posts-000000017');
    assert.notDeepEqual(
      parse(BASE.replace('seed: 3', 'seed: 4')).collections.get('posts')!.generator.generate(17),
      posts[17],
    );
    for (const d of posts) {
      assert.match(String(d.published), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(Number.isInteger(d.likes) && (d.likes as number) <= 50);
      assert.equal(Math.round((d.score as number) * 100) / 100, d.score);
    }
    const shares = posts.filter((d) => (d.stats as Doc).shares !== undefined).length;
    assert.ok(shares > 50 && shares < 150, `about half have shares: ${shares}`);
  });

  it('finds by array element, ordered by the sort key then _id in its direction', () => {
    const q = scenario.queries.get('by-tag')!;
    const answer = oracle.answer(q, { tag: 'go' });
    assert.equal(answer.kind, 'rows');
    const expected = posts
      .filter((d) => (d.tags as string[]).includes('go'))
      .sort((a, b) => (b.likes as number) - (a.likes as number) || (a._id! < b._id! ? 1 : -1))
      .slice(0, 7);
    assert.deepEqual(
      answer.kind === 'rows' ? answer.rows.map((r) => r._id) : [],
      expected.map((d) => d._id),
    );
  });

  it('groups with count and sum; joins by ref with the joined projection', () => {
    const groups = oracle.answer(scenario.queries.get('per-author')!, {});
    const mine = posts.filter((d) => (d.likes as number) >= 10);
    assert.equal(groups.kind === 'rows' ? groups.rows.reduce((n, r) => n + (r.count as number), 0) : -1, mine.length);
    const joined = oracle.answer(scenario.queries.get('with-author')!, { a: 'authors-000000003' });
    assert.ok(
      joined.kind === 'rows' &&
        joined.rows.every(
          (r) =>
            r.author === 'authors-000000003' &&
            Object.keys(r.writer as Doc)
              .sort()
              .join() === '_id,name',
        ),
    );
  });

  it('the check catches a wrong order, a wrong field and a missing document', () => {
    const q = scenario.queries.get('by-tag')!;
    const [entry] = oracle.pool(q, 1);
    const right = oracle.answer(q, entry!.params);
    assert.ok(right.kind === 'rows' && right.rows.length > 2);
    if (right.kind !== 'rows') return;
    assert.equal(checkAnswer(q, entry!.expected, right), undefined);
    const swapped = [right.rows[1]!, right.rows[0]!, ...right.rows.slice(2)];
    assert.match(
      checkAnswer(q, entry!.expected, { kind: 'rows', rows: swapped }) ?? '',
      /first difference at position 1/,
    );
    const changed = right.rows.map((r, i) => (i === 0 ? { ...r, likes: 999 } : r));
    assert.match(checkAnswer(q, entry!.expected, { kind: 'rows', rows: changed }) ?? '', /content differs/);
    assert.match(
      checkAnswer(q, entry!.expected, { kind: 'rows', rows: right.rows.slice(1) }) ?? '',
      /returned \d+ documents, the oracle expects/,
    );
    assert.equal(canonical({ b: 1, a: [2, { d: 1, c: 0 }] }), '{"a":[2,{"c":0,"d":1}],"b":1}');
    assert.deepEqual(
      expectationOf(q, right).ids,
      right.rows.map((r) => r._id),
    );
  });

  it('parameters are drawn from the data, so queries find something', () => {
    const q = scenario.queries.get('by-tag')!;
    const found = oracle.pool(q, 20).filter((e) => e.expected.count > 0).length;
    assert.equal(found, 20);
  });
});

describe('scenario files: each store translates or refuses with the reason', () => {
  const scenario = parse(
    `${BASE}  ors:
    collection: posts
    filter: { $or: [{ likes: { $gt: $n } }, { stats.shares: { $exists: true } }] }
    count: true
    params: { n: { type: int, min: 0, max: 50 } }
`
      .replace('writes:', 'queries_end_marker:')
      .replace('queries_end_marker:\n  bump: { update: posts, set: [stats.shares] }\n', '') +
      'writes:\n  bump: { update: posts, set: [stats.shares] }\n',
  );
  const params = { tag: 'go', n: 3, a: 'authors-000000001' };

  it("SQL++ keeps MongoDB's meaning: ANY over arrays, META().id as the tie, ON KEYS joins", () => {
    const ks = (c: string) => `\`b\`.\`s\`.\`${c}\``;
    const doc = (c: string) => scenario.collections.get(c)!.info;
    const byTag = sqlppOf(scenario.queries.get('by-tag')!, params, ks, doc);
    assert.match(
      byTag.statement,
      /WHERE ANY v IN d\.`tags` SATISFIES v = \$1 END ORDER BY d\.`likes` DESC, META\(d\)\.id DESC LIMIT \$2/,
    );
    assert.match(
      sqlppOf(scenario.queries.get('with-author')!, params, ks, doc).statement,
      /LEFT JOIN `b`\.`s`\.`authors` AS j ON KEYS d\.`author`/,
    );
    assert.match(
      sqlppOf(scenario.queries.get('ors')!, params, ks, doc).statement,
      /\(\(d\.`likes` > \$1\) OR \(d\.`stats`\.`shares` IS NOT MISSING\)\)/,
    );
  });

  it('Mango: $elemMatch for array fields; conditions on an element as its operators', () => {
    assert.deepEqual(selectorOf(scenario.queries.get('by-tag')!.where, params), {
      tags: { $elemMatch: { $eq: 'go' } },
    });
    const elem = parse(
      BASE.replace('filter: { tags: $tag }', 'filter: { tags: { $elemMatch: { $in: [go, js], $ne: rust } } }').replace(
        'params: { tag: { type: pick, from: posts.tags } }',
        '',
      ),
    );
    assert.deepEqual(selectorOf(elem.queries.get('by-tag')!.where, {}), {
      tags: { $elemMatch: { $in: ['go', 'js'], $ne: 'rust' } },
    });
  });

  it('Redis and Cassandra: a structure per query, or the reason there is none', () => {
    const byTag = shapeOf(scenario.queries.get('by-tag')!, 'Redis');
    assert.ok(!('refused' in byTag) && byTag.partition[0]!.path.path === 'tags' && byTag.order[0]!.path === 'likes');
    const ors = shapeOf(scenario.queries.get('ors')!, 'Cassandra');
    assert.ok('refused' in ors && /a parameter inside \$or/.test(ors.refused));
  });

  it('the declared indexes end with the tie rule (_id), so they serve the order', () => {
    const blog = loadScenario(join(import.meta.dirname, '..', '..', 'fixtures', 'scenarios', 'blog.yaml'));
    assert.match(
      mongodb.create({} as never, { scenario: blog }).structures,
      /blog_posts \{author: 1, published: -1, _id: -1\}; blog_posts \{tags: 1, published: -1, _id: -1\}/,
    );
    assert.equal(
      gsiIndex('ks', 'i', [
        { path: 'tags', descending: false, arrays: ['tags'] },
        { path: 'published', descending: true, arrays: [] },
      ]),
      'CREATE INDEX `i` IF NOT EXISTS ON ks(DISTINCT ARRAY v FOR v IN `tags` END, `published` DESC, META().id DESC) WITH {"defer_build": true}',
    );
  });

  it('CouchDB: the shipped files run every query, ordered finds on the declared index', () => {
    const translate = (name: string) =>
      couchdb.create({} as never, {
        scenario: loadScenario(join(import.meta.dirname, '..', '..', 'fixtures', 'scenarios', `${name}.yaml`)),
      }).translations;
    const blog = translate('blog');
    const events = translate('events');
    for (const t of [...blog.values(), ...events.values()]) assert.ok(t.supported, JSON.stringify(t));
    const described = (m: typeof blog, q: string) => (m.get(q) as { description: string }).description;
    assert.match(described(blog, 'author-page'), /sort \[author, published\] desc on the declared index/);
    assert.match(described(events, 'device-recent'), /sort \[device, ts\] desc on the declared index/);
    assert.match(described(events, 'low-battery'), /sort \[device, ts\] asc on the declared index/);
    assert.match(described(blog, 'latest-by-tag'), /sort \[published\] desc on its own index/);
    assert.match(described(blog, 'popular-shared'), /^_find \{ selector, fields \[_id\] \}, counted here/);
  });

  it('every local store has a dialect', () => {
    assert.deepEqual([...FILE_DIALECTS.stores].sort(), [...LOCAL_STORE_NAMES].sort());
  });
});

describe("scenario files: the shipped examples and the docs' (docs/scenarios.md)", () => {
  for (const name of ['blog', 'events']) {
    it(`fixtures/scenarios/${name}.yaml is valid`, () => {
      const s = loadScenario(join(import.meta.dirname, '..', '..', 'fixtures', 'scenarios', `${name}.yaml`));
      assert.ok(s.queries.size >= 4 && s.writes.size >= 2);
    });
  }
  it("the docs' example is valid as it stands", () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'scenarios.md'), 'utf8');
    const block = /```yaml\n(name: library[\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(block, 'docs/scenarios.md has the library example');
    const s = parse(block);
    assert.deepEqual([...s.queries.keys()], ['new-in-genre', 'per-room']);
  });
});

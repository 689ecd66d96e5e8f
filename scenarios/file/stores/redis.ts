/**
 * A scenario file on Redis 7 without modules (RediSearch and RedisJSON are not part of Redis
 * 7.0, the local server): documents as JSON strings, and for each query the structure a Redis
 * application maintains to answer it (key-shape.ts), written in the same MULTI as the document.
 *
 *   documents   `<scenario>:<collection>:<_id>` = the document as JSON (GET, MGET)
 *   find, count a sorted set per partition of the query's equality parameters,
 *               `<scenario>:q:<query>:<partition>`, scored by the first sort key (or the range's
 *               field; dates as epoch ms), members the ids: equal scores order by member, which is
 *               the tie rule (ZRANGE … REV reverses both). Read with ZRANGE BYSCORE [REV] LIMIT,
 *               ZCOUNT; the documents then with MGET, their fields picked as the query projects.
 *               A text sort key: every score 0 and members `<text>\0\0<id>` (a NUL in the text
 *               as `\0\1`), which Redis orders byte by byte: UTF-8 byte order is code point
 *               order, the oracle's (JavaScript's, but for characters beyond U+FFFF against
 *               U+E000-U+FFFF), and the text's end sorts before any longer text; read with
 *               ZRANGE BYLEX [REV] LIMIT
 *   group       a hash per partition, `<scenario>:g:<query>:<partition>`: `c:<value>` counts and
 *               `s:<value>` sums (HINCRBY on the sum scaled to whole units of its decimals, so it
 *               stays exact), read with HGETALL
 *   join        MGET of the joined documents' keys
 *   writes      SET / DEL of the document with ZADD / ZREM / HINCRBY on every structure, in a MULTI
 *
 * The file's `indexes` are MongoDB's idea; Redis has no secondary index: the structures come from
 * the queries. A query with no such structure (a parameter under $or, $ne, $in, a second sort key
 * that is not `_id`) is UNSUPPORTED with the reason.
 */
import type { RedisHandle } from '../../../src/stores/redis/handle.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { ScenarioPlan } from '../../shared/plans.ts';
import { canonical, sumDecimals, type Answer } from '../answers.ts';
import {
  MANIFEST_ID,
  prefixOf,
  refuses,
  runs,
  valueAt,
  type FileDialect,
  type FileDialectContext,
  type FileDialectDefinition,
  type Manifest,
  type Translation,
} from '../dialect.ts';
import type { Doc, Scalar, Value } from '../generator.ts';
import type { Collection, Query, Scenario } from '../model.ts';
import { project } from '../oracle.ts';
import { boundsOf, partitionOf, partitionsOf, scoreOf, shapeOf, type Shape } from './key-shape.ts';

export const dialect: FileDialectDefinition<'redis'> = {
  store: 'redis',
  create: (handle, context) => new RedisFile(handle, context),
};

type Params = Readonly<Record<string, Value>>;

class RedisFile implements FileDialect {
  readonly translations: ReadonlyMap<string, Translation>;
  readonly structures: string;
  private readonly scenario: Scenario;
  private readonly prefix: string;
  private readonly shapes = new Map<string, Shape>();
  /** Queries ordered by a text key: their sorted sets order by member (`lexMember`), every score 0. */
  private readonly lex = new Set<string>();

  constructor(
    private readonly handle: RedisHandle,
    context: FileDialectContext,
  ) {
    this.scenario = context.scenario;
    this.prefix = prefixOf(this.scenario);
    this.translations = new Map([...this.scenario.queries.values()].map((q) => [q.name, this.translate(q)]));
    this.structures = `Redis: documents as JSON strings; per query ${[...this.shapes.keys()].map((n) => `${this.scenario.queries.get(n)!.kind === 'group' ? 'hashes' : 'sorted sets'} ${this.prefix}:${this.scenario.queries.get(n)!.kind === 'group' ? 'g' : 'q'}:${n}:*`).join(', ') || 'no structure'} (the file's indexes have no Redis counterpart)`;
  }

  private translate(q: Query): Translation {
    const shape = shapeOf(q, 'Redis');
    if ('refused' in shape) return refuses(shape.refused);
    const keys = shape.order.filter((k) => k.path !== '_id');
    if (keys.length > 1)
      return refuses(`a sorted set has one score: ${q.name} sorts by ${keys.map((k) => k.path).join(' then ')}`);
    const first = keys[0];
    // Numbers, dates (epoch ms) and booleans (0, 1) are scores; text is ordered by member.
    const text =
      first !== undefined &&
      (first.resolved.leaf.kind !== 'scalar' || !['int', 'decimal', 'date', 'bool'].includes(first.resolved.leaf.type));
    if (text) this.lex.add(q.name);
    this.shapes.set(q.name, shape);
    const partition = shape.partition.map((p) => p.path.path).join(', ');
    if (q.kind === 'group')
      return runs(
        `HGETALL of the hash ${this.prefix}:g:${q.name}:[${partition}] (counts and sums by ${q.by.path}, kept by the writer)`,
      );
    const range = text ? `BYLEX ${first!.path} then id` : first ? `BYSCORE ${first.path}` : 'all';
    if (q.kind === 'count')
      return runs(`ZCOUNT of the sorted set ${this.prefix}:q:${q.name}:[${partition}] (${range})`);
    return runs(
      `ZRANGE ${this.prefix}:q:${q.name}:[${partition}] ${range}${shape.order[0]?.descending ? ' REV' : ''}${q.kind === 'find' && (q.skip || q.limit) ? ' LIMIT' : ''}, then MGET of the documents${q.kind === 'find' && q.join ? `, MGET of the joined ${q.join.from}` : ''}`,
    );
  }

  private docKey(collection: Collection | string, id: string): string {
    return `${this.prefix}:${typeof collection === 'string' ? collection : collection.name}:${id}`;
  }

  private structureKey(q: Query, partition: readonly Scalar[]): string {
    return `${this.prefix}:${q.kind === 'group' ? 'g' : 'q'}:${q.name}:${JSON.stringify(partition)}`;
  }

  /** The commands that take a document out of (sign -1) or into (+1) every structure of its collection. */
  private structureCommands(collection: Collection, doc: Doc, sign: 1 | -1): string[][] {
    const commands: string[][] = [];
    for (const [name, shape] of this.shapes) {
      const q = this.scenario.queries.get(name)!;
      if (q.collection !== collection.name) continue;
      for (const partition of partitionsOf(shape, doc)) {
        const key = this.structureKey(q, partition);
        if (q.kind === 'group') {
          const group = canonical(valueAt(doc, q.by.path));
          commands.push(['HINCRBY', key, `c:${group}`, String(sign)]);
          const sum = q.sum ? valueAt(doc, q.sum.path) : undefined;
          if (typeof sum === 'number')
            commands.push(['HINCRBY', key, `s:${group}`, String(sign * Math.round(sum * 10 ** sumDecimals(q)))]);
          continue;
        }
        const first = shape.order.find((k) => k.path !== '_id');
        if (this.lex.has(name)) {
          const member = lexMember(String(valueAt(doc, first!.path)), String(doc._id));
          commands.push(sign > 0 ? ['ZADD', key, '0', member] : ['ZREM', key, member]);
          continue;
        }
        const score = first ? scoreOf(valueAt(doc, first.path), (first.resolved.leaf as { type: 'int' }).type) : 0;
        commands.push(sign > 0 ? ['ZADD', key, String(score), String(doc._id)] : ['ZREM', key, String(doc._id)]);
      }
    }
    return commands;
  }

  async drop(): Promise<void> {
    await this.handle.unlinkMatching(`${this.prefix}:*`);
  }

  async prepare(): Promise<void> {}

  async insertMany(collection: Collection, docs: readonly Doc[]): Promise<void> {
    const commands: string[][] = [];
    for (const d of docs)
      commands.push(
        ['SET', this.docKey(collection, String(d._id)), JSON.stringify(d)],
        ...this.structureCommands(collection, d, 1),
      );
    await this.handle.transaction(commands);
  }

  async buildIndexes(): Promise<string> {
    return `none to build: the writer keeps ${this.shapes.size} query structures as it writes`;
  }

  private scoreRange(shape: Shape, params: Params): [string, string] {
    let min = '-inf';
    let max = '+inf';
    const first = shape.order.find((k) => k.path !== '_id');
    for (const b of boundsOf(shape, params)) {
      const s = String(scoreOf(b.value, (first!.resolved.leaf as { type: 'int' }).type));
      if (b.op === '$gt') min = `(${s}`;
      if (b.op === '$gte') min = s;
      if (b.op === '$lt') max = `(${s}`;
      if (b.op === '$lte') max = s;
    }
    return [min, max];
  }

  private shape(q: Query): Shape {
    const t = this.translations.get(q.name)!;
    if (!t.supported) throw new UnsupportedError(q.name, t.reason);
    return this.shapes.get(q.name)!;
  }

  async query(q: Query, params: Params): Promise<Answer> {
    const shape = this.shape(q);
    const key = this.structureKey(q, partitionOf(shape, params));
    if (q.kind === 'group') {
      const flat = (await this.handle.call(['HGETALL', key])) as string[] | Record<string, string>;
      const entries: [string, string][] = Array.isArray(flat)
        ? Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i]!, flat[2 * i + 1]!])
        : Object.entries(flat);
      const scale = 10 ** sumDecimals(q);
      const rows = new Map<string, Doc>();
      for (const [field, value] of entries) {
        const group = field.slice(2);
        const row = rows.get(group) ?? { _id: JSON.parse(group) as Value, count: 0 };
        if (field.startsWith('c:')) row.count = Number(value);
        else row.sum = Number(value) / scale;
        rows.set(group, row);
      }
      return {
        kind: 'rows',
        rows: [...rows.values()].filter((r) => (r.count as number) > 0).map((r) => (q.sum ? { sum: 0, ...r } : r)),
      };
    }
    const [min, max] = this.scoreRange(shape, params);
    if (q.kind === 'count') return { kind: 'count', count: Number(await this.handle.call(['ZCOUNT', key, min, max])) };
    const rev = shape.order[0]?.descending === true;
    const lex = this.lex.has(q.name);
    const [low, high] = lex ? ['-', '+'] : [min, max];
    const args = [
      'ZRANGE',
      key,
      rev ? high : low,
      rev ? low : high,
      lex ? 'BYLEX' : 'BYSCORE',
      ...(rev ? ['REV'] : []),
    ];
    if (q.skip > 0 || q.limit !== undefined) args.push('LIMIT', String(q.skip), String(q.limit ?? -1));
    const members = (await this.handle.call(args)) as string[];
    const ids = lex ? members.map(idOfLexMember) : members;
    const docs = await this.fetch(q.collection, ids);
    let rows = q.project ? project(docs, q.project) : docs;
    if (q.join) {
      const join = q.join;
      const refs = docs.map((d) => valueAt(d, join.on.path));
      const targets = new Map(
        (await this.fetch(join.from, [...new Set(refs.filter((r): r is string => typeof r === 'string'))])).map((d) => [
          String(d._id),
          d,
        ]),
      );
      rows = rows.map((row, i) => {
        const target = targets.get(refs[i] as string);
        return target === undefined
          ? row
          : { ...row, [join.as]: join.project ? project([target], join.project)[0]! : target };
      });
    }
    return { kind: 'rows', rows };
  }

  private async fetch(collection: string, ids: readonly string[]): Promise<Doc[]> {
    if (ids.length === 0) return [];
    const values = (await this.handle.call(['MGET', ...ids.map((id) => this.docKey(collection, id))])) as (
      string | null
    )[];
    return values.filter((v): v is string => v !== null).map((v) => JSON.parse(v) as Doc);
  }

  async explain(q: Query, params: Params): Promise<ScenarioPlan> {
    const shape = this.shape(q);
    const key = this.structureKey(q, partitionOf(shape, params));
    const [min, max] = this.scoreRange(shape, params);
    const inRange = Number(await this.handle.call(q.kind === 'group' ? ['HLEN', key] : ['ZCOUNT', key, min, max]));
    const answer = await this.query(q, params);
    const returned = answer.kind === 'count' ? 1 : answer.rows.length;
    // ZRANGE … LIMIT reads past the skipped members to the page's end, not the whole range.
    const examined = q.kind === 'find' ? Math.min(inRange, q.skip + (q.limit ?? inRange)) : inRange;
    return {
      access: 'index',
      used: [key],
      keysExamined: examined,
      documentsExamined: q.kind === 'find' ? returned : 0,
      returned,
      warnings: [],
      source:
        'Redis has no planner: the structure read (the writer keeps one per query) and its members in range (ZCOUNT / HLEN; a page of a find: up to its end)',
      raw: JSON.stringify({ structure: key, range: q.kind === 'group' ? null : [min, max], examined, returned }),
      indexExpected: true,
    };
  }

  async read(collection: Collection, id: string): Promise<Doc | null> {
    const value = (await this.handle.call(['GET', this.docKey(collection, id)])) as string | null;
    return value === null ? null : (JSON.parse(value) as Doc);
  }

  async insert(collection: Collection, doc: Doc): Promise<void> {
    await this.handle.transaction([
      ['SET', this.docKey(collection, String(doc._id)), JSON.stringify(doc)],
      ...this.structureCommands(collection, doc, 1),
    ]);
  }

  async update(collection: Collection, before: Doc, after: Doc): Promise<boolean> {
    const key = this.docKey(collection, String(before._id));
    // A document that is not there has no structure entries to move: nothing is written.
    if (Number(await this.handle.call(['EXISTS', key])) !== 1) return false;
    await this.handle.transaction([
      ...this.structureCommands(collection, before, -1),
      ['SET', key, JSON.stringify(after)],
      ...this.structureCommands(collection, after, 1),
    ]);
    return true;
  }

  async delete(collection: Collection, before: Doc): Promise<boolean> {
    const key = this.docKey(collection, String(before._id));
    if (Number(await this.handle.call(['EXISTS', key])) !== 1) return false;
    await this.handle.transaction([['DEL', key], ...this.structureCommands(collection, before, -1)]);
    return true;
  }

  async readManifest(): Promise<Manifest | null> {
    const value = (await this.handle.call(['GET', `${this.prefix}:${MANIFEST_ID}`])) as string | null;
    return value === null ? null : (JSON.parse(value) as Manifest);
  }

  async writeManifest(manifest: Manifest): Promise<void> {
    await this.handle.call(['SET', `${this.prefix}:${MANIFEST_ID}`, JSON.stringify(manifest)]);
  }
}

/**
 * A sorted-set member that orders by text, then id: Redis compares members byte by byte, and
 * UTF-8 byte order is code point order. The text's NULs are written `\0\1` and it ends with
 * `\0\0`, below any character, so a text comes before every longer one it begins.
 */
export function lexMember(text: string, id: string): string {
  return `${text.replaceAll('\0', '\0\x01')}\0\0${id}`;
}

/** The id at the end of a `lexMember` (ids hold no NUL). */
function idOfLexMember(member: string): string {
  return member.slice(member.lastIndexOf('\0\0') + 2);
}

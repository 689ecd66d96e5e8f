/**
 * The oracle: the same query evaluated over the generated documents in memory, with mingo, a
 * well-kept implementation of MongoDB's query language in JavaScript (filters with MongoDB's
 * array semantics, sort, projection, `$group`), rather than a second evaluator of docbench's own
 * that could share a misreading with the translations it checks. The order docbench adds (ties
 * broken by `_id`, model.ts) is applied as a sort key like any other; the one-level join is a
 * lookup by `_id` in the joined collection.
 *
 * Before a run, every query's parameter sets are drawn and answered once (`pool`): during the
 * run an answer is checked by comparing summaries, not by evaluating the query again.
 */
import { Aggregator, Query as MingoQuery } from 'mingo';
import { expectationOf, roundGroup, sumDecimals, type Answer, type Expected } from './answers.ts';
import { bindFilter } from './filter.ts';
import type { Doc, Value } from './generator.ts';
import type { FindQuery, Query, Scenario } from './model.ts';
import { ParameterDrawer } from './params.ts';

/** One parameter set of a query and what the store must answer for it. */
export interface PoolEntry {
  params: Record<string, Value>;
  expected: Expected;
}

type Mingo = Record<string, unknown>;

export class Oracle {
  /** Every collection's documents, generated once. */
  readonly docs = new Map<string, Doc[]>();
  private readonly byId = new Map<string, Map<string, Doc>>();
  readonly drawer: ParameterDrawer;

  constructor(readonly scenario: Scenario) {
    for (const c of scenario.collections.values()) {
      const docs = Array.from({ length: c.count }, (_, i) => c.generator.generate(i));
      this.docs.set(c.name, docs);
    }
    this.drawer = new ParameterDrawer(scenario, this.docs);
  }

  /** A collection's documents by id (built on first use: only joins need it). */
  private idsOf(collection: string): Map<string, Doc> {
    let map = this.byId.get(collection);
    if (map === undefined)
      this.byId.set(collection, (map = new Map(this.docs.get(collection)!.map((d) => [String(d._id), d]))));
    return map;
  }

  /** The right answer to a query for these parameters. */
  answer(query: Query, params: Readonly<Record<string, Value>>): Answer {
    const docs = this.docs.get(query.collection)!;
    const filter = bindFilter(query.filter, params) as Mingo;
    if (query.kind === 'count') return { kind: 'count', count: new MingoQuery(filter).find(docs).all().length };
    if (query.kind === 'group') {
      const group: Mingo = { _id: `$${query.by.path}`, count: { $sum: 1 } };
      if (query.sum !== undefined) group.sum = { $sum: `$${query.sum.path}` };
      const rows = new Aggregator([{ $match: filter }, { $group: group }]).run(docs) as Doc[];
      return { kind: 'rows', rows: rows.map((r) => roundGroup(r, sumDecimals(query))) };
    }
    return { kind: 'rows', rows: this.find(query, docs, filter) };
  }

  private find(query: FindQuery, docs: readonly Doc[], filter: Mingo): Doc[] {
    let cursor = new MingoQuery(filter).find(docs as Doc[]);
    if (query.order.length > 0)
      cursor = cursor.sort(Object.fromEntries(query.order.map((k) => [k.path, k.descending ? -1 : 1])));
    if (query.skip > 0) cursor = cursor.skip(query.skip);
    if (query.limit !== undefined) cursor = cursor.limit(query.limit);
    const found = cursor.all() as Doc[];
    const rows = query.project ? project(found, query.project) : found.map((d) => ({ ...d }));
    const join = query.join;
    if (join === undefined) return rows;
    const targets = this.idsOf(join.from);
    return rows.map((row, i) => {
      const ref = found[i]![join.on.path.split('.')[0]!] === undefined ? undefined : refOf(found[i]!, join.on.path);
      const target = ref === undefined ? undefined : targets.get(ref);
      if (target === undefined) return row;
      return { ...row, [join.as]: join.project ? project([target], join.project)[0]! : { ...target } };
    });
  }

  /** Parameter sets 0 … n-1 of a query, each with its answer's summary. */
  pool(query: Query, n = this.scenario.run.parametersets): PoolEntry[] {
    return Array.from({ length: n }, (_, k) => {
      const params = this.drawer.draw(query, k);
      return { params, expected: expectationOf(query, this.answer(query, params)) };
    });
  }
}

/** The documents with only these paths (and `_id`), as MongoDB projects them. */
export function project(docs: readonly Doc[], paths: readonly string[]): Doc[] {
  const spec = Object.fromEntries(paths.map((p) => [p, 1]));
  return new MingoQuery({}).find(docs as Doc[], spec).all() as Doc[];
}

function refOf(doc: Doc, path: string): string | undefined {
  let value: Value | undefined = doc;
  for (const segment of path.split('.'))
    value = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Doc)[segment] : undefined;
  return typeof value === 'string' ? value : undefined;
}

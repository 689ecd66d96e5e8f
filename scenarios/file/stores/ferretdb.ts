/**
 * A scenario file on FerretDB: MongoDB's translation (mongodb.ts), the file's own language, on the
 * same driver, with FerretDB v1.24's gaps declared, each refused with its reason in its
 * translation and when it runs: a query with a join (`$lookup`), and a group that sums a field
 * (its `$group` has two accumulators, the count and the sum, and FerretDB answers the second
 * wrongly). Every other query runs as MongoDB's does.
 */
import { NO_LOOKUP, SECOND_ACCUMULATOR } from '../../shared/ferretdb-gaps.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import { refuses, type FileDialect, type FileDialectDefinition } from '../dialect.ts';
import type { Query } from '../model.ts';
import { dialect as mongodb } from './mongodb.ts';

/** Why FerretDB cannot run a query as MongoDB's translation writes it; undefined when it can. */
function gap(q: Query): string | undefined {
  if (q.kind === 'find' && q.join !== undefined) return NO_LOOKUP;
  if (q.kind === 'group' && q.sum !== undefined) return SECOND_ACCUMULATOR;
  return undefined;
}

export const dialect: FileDialectDefinition<'ferretdb'> = {
  store: 'ferretdb',
  create(handle, context) {
    const inner = mongodb.create(handle, context);
    const refused = (q: Query) => new UnsupportedError(q.name, gap(q)!);
    // The MongoDB dialect's own object underneath: every other method is its own, on its own state.
    const ferretdb: FileDialect = Object.create(inner);
    Object.assign(ferretdb, {
      translations: new Map(
        [...inner.translations].map(([name, t]) => {
          const q = context.scenario.queries.get(name);
          const why = q && gap(q);
          return [name, why ? refuses(why) : t];
        }),
      ),
      structures: inner.structures.replace(/^MongoDB indexes/, 'FerretDB indexes'),
      query: (q: Query, params: Parameters<FileDialect['query']>[1]) =>
        gap(q) ? Promise.reject(refused(q)) : inner.query(q, params),
      explain: (q: Query, params: Parameters<FileDialect['explain']>[1]) =>
        gap(q) ? Promise.reject(refused(q)) : inner.explain(q, params),
    });
    return ferretdb;
  },
};

/**
 * A scenario file on FerretDB: MongoDB's translation (mongodb.ts), the file's own language, on the
 * same driver, with FerretDB v1.24's gaps declared: a query with a join (`$lookup`) is refused
 * with the reason, in its translation and when it runs; every other query runs as MongoDB's does.
 */
import { NO_LOOKUP } from '../../../src/stores/ferretdb/gaps.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import { refuses, type FileDialect, type FileDialectDefinition } from '../dialect.ts';
import type { Query } from '../model.ts';
import { dialect as mongodb } from './mongodb.ts';

const joins = (q: Query) => q.kind === 'find' && q.join !== undefined;

export const dialect: FileDialectDefinition<'ferretdb'> = {
  store: 'ferretdb',
  create(handle, context) {
    const inner = mongodb.create(handle, context);
    const refused = (q: Query) => new UnsupportedError(q.name, NO_LOOKUP);
    // The MongoDB dialect's own object underneath: every other method is its own, on its own state.
    const ferretdb: FileDialect = Object.create(inner);
    Object.assign(ferretdb, {
      translations: new Map(
        [...inner.translations].map(([name, t]) => {
          const q = context.scenario.queries.get(name);
          return [name, q && joins(q) ? refuses(NO_LOOKUP) : t];
        }),
      ),
      structures: inner.structures.replace(/^MongoDB indexes/, 'FerretDB indexes'),
      query: (q: Query, params: Parameters<FileDialect['query']>[1]) =>
        joins(q) ? Promise.reject(refused(q)) : inner.query(q, params),
      explain: (q: Query, params: Parameters<FileDialect['explain']>[1]) =>
        joins(q) ? Promise.reject(refused(q)) : inner.explain(q, params),
    });
    return ferretdb;
  },
};

/**
 * Persons on FerretDB: MongoDB's dialect (mongodb.ts) as it is, on the same driver: the same
 * `find` filters ($gt/$lt, $exists, equality and $in, which FerretDB v1.24 implements), the same
 * indexes, size and compaction commands. What FerretDB answers "not implemented" is UNSUPPORTED
 * with its words: the index build (Q3's index is partial, and FerretDB v1.24 does not implement
 * `partialFilterExpression`), whose queries then run without the secondary indexes, as the
 * result's notes say; and compaction, where it refuses it.
 */
import { MongoServerError } from 'mongodb';
import { FERRETDB_VERSION } from '../../../src/stores/ferretdb/local-target-build.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { Compactor, IndexBuilder, PersonsDialect, PersonsDialectDefinition, QueryExplainer } from '../dialect.ts';
import { dialect as mongodb } from './mongodb.ts';

/** FerretDB's answer to what it lacks: `… is not implemented yet` (NotImplemented, code 238). */
function notImplemented(error: unknown): boolean {
  return error instanceof MongoServerError && (error.code === 238 || /not implemented/i.test(error.message));
}

async function refusing<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (notImplemented(error))
      throw new UnsupportedError(what, `FerretDB ${FERRETDB_VERSION} answers: ${(error as Error).message}`);
    throw error;
  }
}

export const dialect: PersonsDialectDefinition<'ferretdb'> = {
  store: 'ferretdb',
  create(handle, context) {
    const inner = mongodb.create(handle, context) as PersonsDialect & IndexBuilder & Compactor & QueryExplainer;
    // The MongoDB dialect's own object underneath: every other method is its own, on its own state.
    const ferretdb: PersonsDialect & IndexBuilder & Compactor & QueryExplainer = Object.create(inner);
    // Whether the secondary indexes exist: a refused build leaves none, so no plan is expected to use one.
    let indexesRefused = false;
    Object.assign(ferretdb, {
      buildIndexes: async () => {
        try {
          return await refusing('INDEX-BUILD', () => inner.buildIndexes());
        } catch (error) {
          if (error instanceof UnsupportedError) indexesRefused = true;
          throw error;
        }
      },
      explain: async (...args: Parameters<QueryExplainer['explain']>) => {
        const plan = await inner.explain(...args);
        // FerretDB's explain is PostgreSQL's estimated plan, with no count of what it returned:
        // the answer's size comes from running the query once more.
        const returned = plan.returned ?? (await inner.query(...args)).length;
        return { ...plan, returned, ...(indexesRefused ? { indexExpected: false } : {}) };
      },
      compact: () => refusing('COMPACT', () => inner.compact()),
    });
    return ferretdb;
  },
};

/**
 * Persons on FerretDB: MongoDB's dialect (mongodb.ts) as it is, on the same driver: the same
 * `find` filters ($gt/$lt, $exists, equality and $in, which FerretDB v1.24 implements), the same
 * indexes and the same size and compaction commands. Where FerretDB refuses one of them, the
 * MongoDB dialect's own handling applies: a missing command (`compact`) is UNSUPPORTED with the
 * server's words, and a refused query fails in the run, counted, never hidden.
 */
import type { PersonsDialectDefinition } from '../dialect.ts';
import { dialect as mongodb } from './mongodb.ts';

export const dialect: PersonsDialectDefinition<'ferretdb'> = {
  store: 'ferretdb',
  create: (handle, context) => mongodb.create(handle, context),
};

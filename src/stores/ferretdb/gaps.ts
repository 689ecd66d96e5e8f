/**
 * What FerretDB v1.24 does not do that the MongoDB store's scenario dialects ask for: the
 * scenarios' ferretdb dialects refuse those queries as UNSUPPORTED with these reasons, so
 * FerretDB's figures cover the same work as MongoDB's where both have one, and nothing is
 * measured as a success that FerretDB did not do.
 *
 * From FerretDB's documentation of v1 (supported commands: aggregation stages) and from its own
 * answers here: an aggregation with `$lookup` fails with "$lookup stage is not implemented yet".
 */
import { FERRETDB_VERSION } from './build.ts';

/** The aggregation stages FerretDB v1.24 implements. */
export const FERRETDB_STAGES = [
  '$addFields',
  '$collStats',
  '$count',
  '$group',
  '$limit',
  '$match',
  '$project',
  '$set',
  '$skip',
  '$sort',
  '$unset',
  '$unwind',
] as const;

/** Why a query that joins with `$lookup` is refused. */
export const NO_LOOKUP = `FerretDB ${FERRETDB_VERSION} does not implement the $lookup aggregation stage (its stages are ${FERRETDB_STAGES.join(' ')})`;

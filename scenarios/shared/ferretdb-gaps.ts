/**
 * What FerretDB v1.24 does not do that the MongoDB store's scenario dialects ask for: the
 * scenarios' ferretdb dialects refuse those queries as UNSUPPORTED with these reasons, so
 * FerretDB's figures cover the same work as MongoDB's where both have one, and nothing is
 * measured as a success that FerretDB did not do.
 *
 * From FerretDB v1's documentation (its supported-commands reference: projections "with fields"
 * only, no `$lookup`) and from its own answers: v1.24.2's buildInfo lists its stages
 * (`ferretdbFeatures.aggregationStages`, FERRETDB_STAGES below), an aggregation with `$lookup`
 * fails with "`aggregate` stage "$lookup" is not implemented yet", and an index with
 * `partialFilterExpression` with "Index option "partialFilterExpression" is not implemented yet".
 * (A `$project` of a field path, `{z: "$v"}`, answers the string "$v": only MongoDB's `$lookup`
 * pipeline uses one, and it is refused already.)
 */
import { FERRETDB_VERSION } from '../../src/stores/ferretdb/local-target-build.ts';

/** The aggregation stages FerretDB v1.24 implements (its buildInfo.ferretdbFeatures.aggregationStages). */
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

/**
 * Why a `$group` with two accumulators is refused: FerretDB v1.24.2 answers 0 for every
 * accumulator after the first when the group has a key (`{_id: "$author", count: {$sum: 1},
 * sum: {$sum: "$likes"}}` gives each author's count and a sum of 0; as measured here, and as the
 * scenario file's oracle check caught it). Refused rather than measured as a wrong answer.
 */
export const SECOND_ACCUMULATOR = `FerretDB ${FERRETDB_VERSION} answers 0 for the second accumulator of a $group by a key (the count and the sum of one $group: its sums come back 0), so the query is refused rather than answered wrongly`;

/**
 * Why the e-commerce scenario does not run on FerretDB v1: its customers hold an array of arrays
 * (`linked_devices`), and FerretDB v1 stores no nested arrays (its insert answers "invalid value").
 */
export const NO_NESTED_ARRAYS = `FerretDB ${FERRETDB_VERSION} does not store nested arrays (arrays of arrays), and the e-commerce customers' linked_devices is one (its inserts answer "invalid value")`;

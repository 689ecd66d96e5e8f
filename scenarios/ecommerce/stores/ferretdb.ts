/**
 * FerretDB: MongoDB's dialect (mongodb.ts, mongodb-soe.ts) as it is, on the same driver and
 * collections, with FerretDB v1.24's gaps declared: the variants that join with `$lookup` (the
 * JOIN's `lookup`, YCSB-JSON's report `lookup`) are refused as UNSUPPORTED with the reason, and
 * their explain with them. The JOIN's `two-phase` variant ($in then $group) runs, so the JOIN is
 * measured on FerretDB as an application would run it there.
 */
import { NO_LOOKUP } from '../../../src/stores/ferretdb/gaps.ts';
import { UnsupportedError } from '../../../src/stores/store.ts';
import type { EcommerceDialect, EcommerceDialectDefinition, ExplainRequest, QueryExplainer } from '../dialect.ts';
import type { JoinParams, ReportParams } from '../queries.ts';
import { dialect as mongodb } from './mongodb.ts';

/** The variant name both the JOIN and YCSB-JSON's report give their `$lookup` pipeline. */
const LOOKUP = 'lookup';

export const dialect: EcommerceDialectDefinition<'ferretdb'> = {
  store: 'ferretdb',
  create(handle, context) {
    const inner = mongodb.create(handle, context) as EcommerceDialect & QueryExplainer;
    // The MongoDB dialect's own object underneath: every other method is its own, on its own state.
    const ferretdb: EcommerceDialect & QueryExplainer = Object.create(inner);
    Object.assign(ferretdb, {
      layout: [
        ...inner.layout.map((line) => line.replace(/^mongodb:/, 'ferretdb:')),
        `ferretdb: MongoDB's dialect; the $lookup variants (JOIN lookup, soe-report lookup) are UNSUPPORTED: ${NO_LOOKUP}`,
      ],
      join: (variant: string, params: JoinParams) =>
        variant === LOOKUP ? Promise.reject(refusal('join lookup')) : inner.join(variant, params),
      soe: {
        ids: inner.soe.ids.bind(inner.soe),
        report: (variant: string, params: ReportParams) =>
          variant === LOOKUP ? Promise.reject(refusal('soe-report lookup')) : inner.soe.report(variant, params),
      },
      explain: (variant: string, request: ExplainRequest) =>
        variant === LOOKUP && (request.kind === 'join' || request.kind === 'soe-report')
          ? Promise.reject(refusal(`${request.kind} lookup`))
          : inner.explain(variant, request),
    });
    return ferretdb;
  },
};

function refusal(what: string): UnsupportedError {
  return new UnsupportedError(what, NO_LOOKUP);
}

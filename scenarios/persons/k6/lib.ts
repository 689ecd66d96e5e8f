/**
 * The persons scenario's queries over HTTP (Henricsson 2011: Q1–Q5 on the persons
 * dataset), through `GET /persons?q=…&nested=…` of docbench serve.
 *
 * The oracle is the scenario's own (scenarios/persons/oracle.ts, pure TypeScript like the
 * generator it runs): setup() computes every query's expected count, id checksum and body checksum from the
 * dataset's seed and size, which the service reports, and every answer is checked against it
 * (the VERIFY row), as `docbench persons` checks its direct runs. Each VU runs Q1, Q2, … Q5 in
 * turn, so the five are measured equally often.
 */
import http, { type Params } from 'k6/http';
import { fail } from 'k6';
import { expectedAnswers, type Expectation } from '../oracle.ts';
import type { QueryId } from '../queries.ts';
import type { PersonsServiceSettings } from '../routes.ts';
import { sameAnswer, summarizeIds } from '../../shared/checksum.ts';
import { statusOfHttp } from '../../../k6/lib/metric-names.ts';
import { checkAnswer, defineOperations, recordFailure } from '../../../k6/lib/metrics.ts';
import { operationParams, serviceHeaders, serviceInfo, startRun, type SetupBase } from '../../../k6/lib/service.ts';
import type { LoadSettings } from '../../../k6/lib/settings.ts';

/** The thesis's five queries (scenarios/persons/queries.ts QUERY_IDS), the script's rows. */
export const PERSONS_ROWS: readonly QueryId[] = ['Q1', 'Q2', 'Q3', 'Q4', 'Q5'];

export interface PersonsSetup extends SetupBase {
  nested: boolean;
  /** VARIANT, or null for the store's first. */
  variant: string | null;
  expected: Record<string, Expectation>;
}

export function definePersonsOperations(): void {
  defineOperations(PERSONS_ROWS);
}

function queryUrl(settings: LoadSettings, id: QueryId, nested: boolean, variant: string | null): string {
  return `${settings.baseUrl}/persons?q=${id.slice(1)}&nested=${nested}${variant === null ? '' : `&variant=${encodeURIComponent(variant)}`}`;
}

/**
 * setup(): the dataset the service was told about, the oracle's answers for it, and one request
 * per query before the measured run (a variant that needs building, such as CouchDB's views, is
 * built on its first request: that build is not part of the queries' latency).
 */
export function setupPersons(settings: LoadSettings, env: Record<string, string | undefined>): PersonsSetup {
  const info = serviceInfo(settings);
  const persons = info.scenarioInfo.persons as PersonsServiceSettings | undefined;
  if (persons === undefined || !info.scenarios.includes('persons'))
    fail(`the service at ${settings.baseUrl} does not serve the persons scenario (start it with --scenario persons)`);
  const nested = env.NESTED === 'true';
  if (env.NESTED !== undefined && env.NESTED !== 'true' && env.NESTED !== 'false')
    fail(`NESTED must be true or false, got "${env.NESTED}"`);
  const variant = env.VARIANT ?? null;
  const dataset = { seed: persons.seed, size: persons.size, shape: nested ? ('nested' as const) : ('flat' as const) };
  const answers = expectedAnswers(dataset);
  const expected: Record<string, Expectation> = {};
  for (const [id, summary] of answers) expected[id] = summary;

  let ranAs = variant;
  for (const id of PERSONS_ROWS) {
    const response = http.get(queryUrl(settings, id, nested, variant), {
      headers: serviceHeaders(settings),
      tags: { name: 'docbench warm-up' },
      responseType: 'text',
      timeout: '10m',
      // A query the target cannot run answers 501, and its row says so: not a failed request.
      responseCallback: http.expectedStatuses(200, 501),
    });
    if (response.status === 200) {
      const body = response.json() as { variant: string; count: number };
      ranAs = body.variant;
      if (body.count !== expected[id]!.count) {
        fail(
          `${id} answered ${body.count} documents, the oracle expects ${expected[id]!.count} for ${dataset.size} ${dataset.shape} persons (seed ${dataset.seed}): is that what was seeded? (docbench seed persons --store ${info.store!.name} --size N${nested ? ' --nested' : ''}; docbench serve … -p persons.size=N)`,
        );
      }
    } else if (response.status !== 501) {
      fail(
        `GET ${queryUrl(settings, id, nested, variant)} answered ${response.status}: ${typeof response.body === 'string' ? response.body.slice(0, 300) : ''}`,
      );
    }
  }
  const run = {
    kind: 'persons',
    workloadName: `persons-${dataset.shape}-${dataset.size}${persons.indexes ? '-indexed' : ''}`,
    properties: {
      scenario: 'persons',
      seed: dataset.seed,
      size: dataset.size,
      shape: dataset.shape,
      indexes: persons.indexes,
      variant: ranAs ?? "(the store's first)",
    },
    rows: PERSONS_ROWS,
    notes: [
      `persons variant ${ranAs ?? "(the store's first)"}; each VU runs Q1 … Q5 in turn; one warm-up request per query before the run (builds a variant's views or indexes)`,
      'every answer checked against the oracle (count, id checksum and body checksum: VERIFY)',
    ],
  };
  return { ...startRun(settings, info, run), nested, variant, expected };
}

let turn = 0;
/** Each query's request parameters, built once per VU. */
let params: Map<QueryId, Params> | null = null;

/** One query (one k6 iteration), its answer checked. */
export function runPersons(settings: LoadSettings, data: PersonsSetup): void {
  const id = PERSONS_ROWS[turn++ % PERSONS_ROWS.length]!;
  params ??= new Map(
    PERSONS_ROWS.map((q) => [q, { ...operationParams(settings, q, 'GET /persons', 'text'), timeout: '10m' }]),
  );
  const response = http.get(queryUrl(settings, id, data.nested, data.variant), params.get(id)!);
  if (response.status !== 200) {
    const status = statusOfHttp(response.status);
    return recordFailure(id, status === 'OK' ? 'UNEXPECTED_STATE' : status, response.timings.duration, response.status);
  }
  const answer = response.json() as { ids: string[]; bodies: string };
  const expected = data.expected[id]!;
  checkAnswer(id, sameAnswer(summarizeIds(answer.ids), expected) && answer.bodies === expected.bodies);
}

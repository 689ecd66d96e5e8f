/**
 * A scenario file's queries through docbench serve (`docbench serve --store X --scenario
 * blog.yaml`, or `docbench k6 blog.yaml --store X [--seed-scenario]`, which does both): each
 * iteration one query of the file's mix, drawn by its proportion among the mix's queries, with
 * one of the oracle's parameter sets (GET /_docbench/scenario/parameters, fetched once in
 * setup), its answer checked against the oracle's as the direct runs check it (VERIFY). The
 * mix's writes are not driven over HTTP: the result says so.
 *
 * Load shape from the environment (BASE_URL, MODEL, VUS, ITERATIONS, DURATION, RATE, …: see
 * k6/README.md); ROWS names the mix's queries (docbench k6 sets it from the file).
 */
import http, { type Params } from 'k6/http';
import { fail } from 'k6';
import { checkShaped, type Answer } from '../answers.ts';
import type { Doc } from '../generator.ts';
import type { ParameterPool, ScenarioInfo } from '../service.ts';
import { statusOfHttp } from '../../../k6/lib/metric-names.ts';
import { checkAnswer, defineOperations, recordFailure } from '../../../k6/lib/metrics.ts';
import { scriptOptions } from '../../../k6/lib/options.ts';
import { scriptSettings } from '../../../k6/lib/scripts.ts';
import {
  getJson,
  operationParams,
  serviceHeaders,
  serviceInfo,
  startRun,
  teardownRun,
  type SetupBase,
} from '../../../k6/lib/service.ts';
import { summarize, type SummaryData } from '../../../k6/lib/summary.ts';

const settings = scriptSettings();
const ROWS = (__ENV.ROWS ?? '').split(',').filter(Boolean);
if (ROWS.length === 0) fail('ROWS must name the queries to run (docbench k6 <file> sets it from the file)');
defineOperations(ROWS);

export const options = { ...scriptOptions(settings, 'scenario', ROWS), setupTimeout: '10m' };

interface Setup extends SetupBase {
  queries: { name: string; share: number; kind: ScenarioInfo['queries'][number]['kind']; decimals: number }[];
  pools: Record<string, ParameterPool['entries']>;
}

export function setup(): Setup {
  const info = serviceInfo(settings);
  if (!info.scenarios.includes('file'))
    fail(`the service at ${settings.baseUrl} serves no scenario file (start it with --scenario <file>)`);
  const file = getJson<ScenarioInfo>(settings, `${settings.baseUrl}/_docbench/scenario`, 'docbench scenario');
  const mix = file.mix.filter(([op]) => ROWS.includes(op));
  const total = mix.reduce((sum, [, p]) => sum + p, 0);
  const queries = mix.map(([name, p]) => {
    const q = file.queries.find((x) => x.name === name);
    if (q === undefined) fail(`${name} is no query of ${file.name}`);
    return { name, share: p / total, kind: q.kind, decimals: q.decimals, supported: q.supported };
  });
  // A query the store refuses is left out (its row stays empty; the notes say why), as direct runs do.
  const refused = file.queries.filter((q) => ROWS.includes(q.name) && !q.supported);
  const runnable = queries.filter((q) => q.supported);
  if (runnable.length === 0)
    fail(
      `every query of the mix is UNSUPPORTED on ${info.store!.name}: ${refused.map((q) => `${q.name}: ${q.translation}`).join('; ')}`,
    );
  const share = runnable.reduce((sum, q) => sum + q.share, 0);
  for (const q of runnable) q.share /= share;
  const pools: Record<string, ParameterPool['entries']> = {};
  for (const q of runnable) {
    pools[q.name] = getJson<ParameterPool>(
      settings,
      `${settings.baseUrl}/_docbench/scenario/parameters?query=${encodeURIComponent(q.name)}`,
      'docbench parameters',
    ).entries;
    // One request before the run: connections, prepared statements, the dialect's manifest check.
    http.post(`${settings.baseUrl}/queries/${q.name}`, JSON.stringify({ params: pools[q.name]![0]!.params }), {
      headers: { ...serviceHeaders(settings), 'Content-Type': 'application/json' },
      tags: { name: 'docbench warm-up' },
    });
  }
  const run = {
    kind: 'scenario',
    workloadName: file.name,
    properties: {
      scenario: 'scenario',
      file: file.file,
      name: file.name,
      ...Object.fromEntries(runnable.map((q) => [`mix.${q.name}`, q.share])),
    },
    rows: ROWS,
    notes: [
      "each iteration one query of the mix, by its share among the mix's queries, with one of the oracle's parameter sets; every answer checked against the oracle (VERIFY)",
      ...refused.map((q) => `${q.name}: UNSUPPORTED on this store, left out of the mix: ${q.translation}`),
      ...(file.writes.length > 0
        ? [
            `the file's writes (${file.writes.join(', ')}) are not driven over HTTP: docbench scenario runs them directly`,
          ]
        : []),
      ...file.queries.filter((q) => ROWS.includes(q.name) && q.supported).map((q) => `${q.name}: ${q.translation}`),
    ],
  };
  return { ...startRun(settings, info, run), queries: runnable, pools };
}

let params: Map<string, Params> | null = null;

export default function (data: Setup): void {
  let x = Math.random();
  const q = data.queries.find((candidate) => (x -= candidate.share) < 0) ?? data.queries.at(-1)!;
  const pool = data.pools[q.name]!;
  const entry = pool[Math.floor(Math.random() * pool.length)]!;
  params ??= new Map(
    data.queries.map((c) => [
      c.name,
      operationParams(settings, c.name, `POST /queries/${c.name}`, 'text', { 'Content-Type': 'application/json' }),
    ]),
  );
  const response = http.post(
    `${settings.baseUrl}/queries/${q.name}`,
    JSON.stringify({ params: entry.params }),
    params.get(q.name)!,
  );
  if (response.status !== 200) {
    const status = statusOfHttp(response.status);
    return recordFailure(
      q.name,
      status === 'OK' ? 'UNEXPECTED_STATE' : status,
      response.timings.duration,
      response.status,
    );
  }
  const body = response.json() as { rows?: Doc[]; count?: number };
  const answer: Answer =
    body.rows !== undefined ? { kind: 'rows', rows: body.rows } : { kind: 'count', count: body.count ?? -1 };
  checkAnswer(q.name, checkShaped({ kind: q.kind, decimals: q.decimals }, entry.expected, answer) === undefined);
}

export function teardown(data: Setup): void {
  teardownRun(settings, data);
}

export function handleSummary(data: SummaryData): Record<string, string> | undefined {
  return summarize(data, settings);
}

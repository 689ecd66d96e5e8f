/**
 * A scenario file's part of `docbench serve` (`--scenario <file>`, which reaches the service as
 * `-p file.path=<file>`): its queries as the routes a web developer would write for them, run by
 * the same dialects as the direct runs; and, for load generators, the oracle's parameter sets
 * with their expected answers, so a k6 script checks every answer without loading the generator
 * (faker does not run in k6).
 *
 *   POST /queries/<name>  {"params": {…}}          200 {query, rows} | {query, count}; 501 when the
 *                                                  store refuses the query (the reason), 404 unknown
 *   GET  /_docbench/scenario                        the file: its name, queries, mix, this store's translations
 *   GET  /_docbench/scenario/parameters?query=<name>  the query's parameter sets and expected answers
 *
 * The dataset is seeded beforehand (`docbench seed scenario <file> --store X`); the service checks
 * its manifest on the first query of each connection.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseParameters, ValidationError } from '../../src/service/validation.ts';
import type { Store } from '../../src/stores/store.ts';
import { WorkloadError } from '../../src/workload/properties.ts';
import type { ScenarioRouteOptions, ScenarioService } from '../scenario.ts';
import { sumDecimals } from './answers.ts';
import type { FileDialect } from './dialect.ts';
import type { Value } from './generator.ts';
import { loadScenario } from './load.ts';
import type { Query, Scenario } from './model.ts';
import { Oracle, type PoolEntry } from './oracle.ts';
import { checkManifest, fileDialect } from './run.ts';

export interface FileServiceSettings {
  scenario: Scenario;
}

/** What GET /_docbench/scenario answers. */
export interface ScenarioInfo {
  name: string;
  file: string;
  queries: {
    name: string;
    kind: Query['kind'];
    ordered: boolean;
    decimals: number;
    supported: boolean;
    translation: string;
  }[];
  mix: [string, number][];
  writes: string[];
}

/** One query's parameter sets with the oracle's expected answers. */
export interface ParameterPool {
  query: string;
  entries: PoolEntry[];
}

const paramsBody = z.object({ params: z.record(z.string(), z.unknown()).default({}) }).strict();
const poolQuery = z.object({ query: z.string({ error: 'expected a query name' }).max(64, 'is too long') }).strict();

function settings(assignments: readonly string[]): FileServiceSettings {
  const path = assignments.find((a) => a.startsWith('path='))?.slice('path='.length);
  const other = assignments.find((a) => !a.startsWith('path='));
  if (other !== undefined)
    throw new WorkloadError(
      `-p file.${other}: the scenario file service takes only the file (give it with --scenario <file>)`,
    );
  if (path === undefined) throw new WorkloadError('--scenario: name the scenario file to serve (--scenario blog.yaml)');
  return { scenario: loadScenario(path) };
}

function register(app: FastifyInstance, options: ScenarioRouteOptions<FileServiceSettings>): void {
  const { gate } = options;
  const scenario = options.settings.scenario;
  // One dialect per store connection (a reconnect brings a new store), its manifest checked once.
  const dialects = new WeakMap<Store, Promise<FileDialect>>();
  const dialectOf = (store: Store) => {
    let d = dialects.get(store);
    if (d === undefined) {
      d = fileDialect(store, scenario).then(async (dialect) => {
        await checkManifest(dialect, scenario, store.name);
        return dialect;
      });
      d.catch(() => dialects.delete(store));
      dialects.set(store, d);
    }
    return d;
  };
  let oracle: Oracle | undefined;
  const pools = new Map<string, PoolEntry[]>();

  app.post<{ Params: { name: string } }>('/queries/:name', async (request, reply) => {
    const query = scenario.queries.get(request.params.name);
    if (query === undefined)
      return reply.code(404).send({
        error: 'no such query',
        message: `${scenario.name} has no query ${request.params.name}; it has ${[...scenario.queries.keys()].join(', ')}`,
      });
    const body = parseParameters(paramsBody, request.body ?? {}, 'body');
    for (const name of query.params.keys())
      if (!(name in body.params))
        throw new ValidationError('params', 'body', `params.${name}: the query ${query.name} needs it`);
    return gate.use(async (store) => {
      const answer = await (await dialectOf(store)).query(query, body.params as Record<string, Value>);
      return answer.kind === 'count'
        ? { query: query.name, count: answer.count }
        : { query: query.name, rows: answer.rows };
    });
  });

  app.get('/_docbench/scenario', async (): Promise<ScenarioInfo> =>
    gate.use(async (store) => {
      const dialect = await dialectOf(store);
      return {
        name: scenario.name,
        file: scenario.file,
        queries: [...scenario.queries.values()].map((q) => {
          const t = dialect.translations.get(q.name)!;
          return {
            name: q.name,
            kind: q.kind,
            ordered: q.kind === 'find' && q.order.length > 0,
            decimals: sumDecimals(q),
            supported: t.supported,
            translation: t.supported ? t.description : t.reason,
          };
        }),
        mix: [...scenario.mix],
        writes: [...scenario.writes.keys()],
      };
    }),
  );

  app.get('/_docbench/scenario/parameters', async (request, reply): Promise<ParameterPool | undefined> => {
    const { query: name } = parseParameters(poolQuery, request.query, 'query');
    const query = scenario.queries.get(name);
    if (query === undefined) {
      reply.code(404).send({ error: 'no such query', message: `${scenario.name} has no query ${name}` });
      return undefined;
    }
    // The oracle generates every document once, on the first request (k6's setup makes it).
    oracle ??= new Oracle(scenario);
    let entries = pools.get(name);
    if (entries === undefined) pools.set(name, (entries = oracle.pool(query)));
    return { query: name, entries };
  });
}

export const service: ScenarioService<FileServiceSettings> = {
  settings,
  register,
  info: (s) => ({ name: s.scenario.name, file: s.scenario.file }),
};

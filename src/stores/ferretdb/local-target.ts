/**
 * Local FerretDB: FerretDB v1.24 built from the Go module proxy into the cache folder (build.ts),
 * on docbench's local PostgreSQL (src/stores/postgres/local-target.ts), in a database of its own
 * (`ferretdb`) there. The PostgreSQL backend, not FerretDB's SQLite one: FerretDB on PostgreSQL
 * is the product FerretDB ships and documents for production (its Docker image pairs it with
 * PostgreSQL); SQLite is its embedded alternative, with other costs.
 *
 * It listens on 127.0.0.1:27217 (DOCBENCH_FERRETDB_PORT moves it), with telemetry off, its debug
 * HTTP listener off, and its state folder in its run folder. Starting it starts the local
 * PostgreSQL first (idempotent); stopping it leaves PostgreSQL running (other runs may use it).
 *
 * A real product, not a stand-in: its figures are FerretDB's own, and every result names it
 * (the store's stats read FerretDB's version from buildInfo). What FerretDB v1 does not do is in
 * LIMITS and in the scenarios' ferretdb dialects, which refuse it as UNSUPPORTED.
 */
import { managedServer } from '../../local/managed-server.ts';
import { localPort, LOOPBACK } from '../../local/ports.ts';
import { StartFailedError } from '../../local/process.ts';
import type { LocalTarget } from '../../local/target.ts';
import { localPostgresUrl } from '../postgres/local-target.ts';
import { FERRETDB_VERSION, installFerretdb } from './local-target-build.ts';
import { answersPing } from '../mongodb/local-target-ping.ts';

const PORT = localPort('ferretdb', 27217);
const URL = `mongodb://${LOOPBACK}:${PORT.port}/?directConnection=true`;
/** The PostgreSQL database FerretDB keeps its data in (each MongoDB database is a schema there). */
const POSTGRES_DATABASE = 'ferretdb';

export const LIMITS = [
  `FerretDB ${FERRETDB_VERSION} is MongoDB-compatible, not MongoDB: it translates MongoDB's commands into SQL on PostgreSQL (JSONB), so its figures are FerretDB's and PostgreSQL's`,
  'it reports MongoDB 7.0.42 in buildInfo (its own version is buildInfo.ferretdbVersion)',
  'aggregation stages $lookup, $facet, $bucket, $graphLookup and others are not implemented in v1 (the scenarios refuse those queries as UNSUPPORTED); $count $group $limit $match $set $sort $unset $addFields $project $skip $unwind $collStats are',
  'no replica set: one node, no transactions',
].join('; ');

async function startPostgres(log: (line: string) => void): Promise<void> {
  const { localTarget: postgres } = await import('../postgres/local-target.ts');
  await postgres.start(log);
  // The `pg` driver is docbench's own (the postgres store's), loaded only here.
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: localPostgresUrl('postgres') });
  try {
    await client.connect();
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [POSTGRES_DATABASE]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${POSTGRES_DATABASE}"`);
  } catch (error) {
    throw new StartFailedError(
      `ferretdb: could not make its database "${POSTGRES_DATABASE}" on the local PostgreSQL: ${error instanceof Error ? error.message : String(error)}`,
    );
  } finally {
    await client.end().catch(() => {});
  }
}

const server = managedServer({
  store: 'ferretdb',
  program: `FerretDB ${FERRETDB_VERSION}`,
  url: URL,
  ports: [PORT],
  recognise: 'ferretdb',
  files: 'ferretdb',
  install: async (log) => {
    await installFerretdb(log);
  },
  command: async ({ data }) => ({
    command: await installFerretdb(() => {}),
    args: [
      `--listen-addr=${LOOPBACK}:${PORT.port}`,
      '--handler=postgresql',
      `--postgresql-url=${localPostgresUrl(POSTGRES_DATABASE)}`,
      `--state-dir=${data}`,
      '--telemetry=disable',
      // Its debug HTTP listener (pprof, metrics) would take 127.0.0.1:8088: off.
      '--debug-addr=-',
      '--log-level=WARN',
    ],
  }),
  healthy: () => answersPing(URL),
  startTimeoutMs: 60_000,
  pollMs: 500,
  info: async () => ({
    store: 'ferretdb',
    product: `FerretDB ${FERRETDB_VERSION} on PostgreSQL`,
    standIn: false,
    limits: LIMITS,
  }),
});

/** FerretDB's server, which needs the local PostgreSQL: started first. */
export const localTarget: LocalTarget = {
  ...server,
  start: async (log) => {
    await startPostgres(log);
    return server.start(log);
  },
};

/**
 * The real servers of all five stores under Docker (docker/compose.yaml), for users who have
 * Docker. docbench only drives `docker compose` and knows the URLs the compose file publishes;
 * everything about the servers themselves lives in the compose file.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MissingPrerequisiteError, StartFailedError } from './process.ts';

export const COMPOSE_FILE = join(fileURLToPath(new URL('.', import.meta.url)), '..', '..', 'docker', 'compose.yaml');

/** Connection URL of each store as docker/compose.yaml publishes it (credentials as set there). */
export const DOCKER_URLS: Readonly<Record<string, string>> = {
  mongodb: 'mongodb://127.0.0.1:27017/?directConnection=true',
  couchdb: 'http://admin:password@127.0.0.1:5984',
  couchbase: 'couchbase://Administrator:password@127.0.0.1/docbench',
  redis: 'redis://127.0.0.1:6379',
  cassandra: 'cassandra://127.0.0.1:9042/?datacenter=datacenter1',
};

/** The compose services that serve a store (Couchbase also needs its one-shot init). */
function servicesOf(stores: readonly string[]): string[] {
  return stores.flatMap((s) => (s === 'couchbase' ? ['couchbase', 'couchbase-init'] : [s]));
}

function compose(args: readonly string[]): void {
  const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new MissingPrerequisiteError('Docker with the compose plugin is needed for --docker (docker compose version failed); or run `docbench up` for the local servers');
  }
  const run = spawnSync('docker', ['compose', '-f', COMPOSE_FILE, ...args], { stdio: 'inherit' });
  if (run.status !== 0) throw new StartFailedError(`docker compose ${args.join(' ')} failed (exit ${run.status ?? run.signal}); see its output above`);
}

/** Start the given stores' containers (all by default) and wait until their health checks pass. */
export function dockerUp(stores: readonly string[]): void {
  compose(['up', '-d', '--wait', ...servicesOf(stores)]);
}

/** Stop and remove the given stores' containers (all by default); data volumes are kept. */
export function dockerDown(stores: readonly string[]): void {
  if (stores.length === 0) compose(['down']);
  else compose(['rm', '--stop', '--force', ...servicesOf(stores)]);
}

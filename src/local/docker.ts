/**
 * The real servers of five stores under Docker (docker/compose.yaml; HBase has no official
 * image), for users who have Docker. docbench only drives `docker compose` and knows the URLs the
 * compose file publishes; everything about the servers themselves lives in the compose file.
 */
import { spawnSync } from 'node:child_process';
import { dockerServices, dockerUrl, isStoreName, STORE_NAMES } from '../stores/stores.ts';
import { MissingPrerequisiteError, StartFailedError } from './process.ts';
import { projectPath } from '../common/project-root.ts';

export const COMPOSE_FILE = projectPath('docker', 'compose.yaml');

/** Connection URL of each store as docker/compose.yaml publishes it (credentials as set there), from the STORES table. */
export const DOCKER_URLS: Readonly<Record<string, string>> = Object.fromEntries(
  STORE_NAMES.flatMap((name) => {
    const url = dockerUrl(name);
    return url === undefined ? [] : [[name, url]];
  }),
);

/** The compose services that serve the given stores (Couchbase also needs its one-shot init). */
function servicesOf(stores: readonly string[]): string[] {
  return stores.flatMap((s) => (isStoreName(s) ? dockerServices(s) : [s]));
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

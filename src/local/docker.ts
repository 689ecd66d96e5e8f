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

const INSTEAD = 'or leave out --docker to use the local servers (`docbench up`)';

/**
 * A Docker engine answers here, or a one-line error naming Docker: --docker's servers run in it,
 * and a refused connection to 127.0.0.1:6379 would not say why nothing listens there.
 */
export function checkDockerEngine(): void {
  const probe = spawnSync('docker', ['info', '--format', '{{.ServerVersion}}'], { encoding: 'utf8', timeout: 20_000 });
  if (probe.error !== undefined && (probe.error as NodeJS.ErrnoException).code === 'ENOENT') {
    throw new MissingPrerequisiteError(
      `--docker: Docker is not installed here (no docker command); install it and run \`docbench up --docker\`, ${INSTEAD}`,
    );
  }
  if (probe.status !== 0) {
    const why =
      `${probe.stderr ?? ''}`
        .split('\n')
        .map((l) => l.trim())
        .find((l) => /cannot connect|error|denied/i.test(l)) ?? `docker info exited ${probe.status ?? probe.signal}`;
    throw new MissingPrerequisiteError(
      `--docker: no Docker engine answers here (${why.replace(/^ERROR:\s*/, '')}); start Docker and run \`docbench up --docker\`, ${INSTEAD}`,
    );
  }
}

function compose(args: readonly string[]): void {
  checkDockerEngine();
  const probe = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) {
    throw new MissingPrerequisiteError(
      'Docker with the compose plugin is needed for --docker (docker compose version failed); or run `docbench up` for the local servers',
    );
  }
  const run = spawnSync('docker', ['compose', '-f', COMPOSE_FILE, ...args], { stdio: 'inherit' });
  if (run.status !== 0)
    throw new StartFailedError(
      `docker compose ${args.join(' ')} failed (exit ${run.status ?? run.signal}); see its output above`,
    );
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

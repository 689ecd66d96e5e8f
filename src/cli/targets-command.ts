import { DOCKER_URLS, dockerDown, dockerUp } from '../local/docker.ts';
import { LOCAL_TARGET_NAMES, localTarget } from '../local/targets.ts';
import { UsageError } from './errors.ts';
import { maskUrl } from '../common/mask-url.ts';
import { checkDriver, DriverMissingError, type StoreName } from '../stores/stores.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);

/** Why a local target cannot be used here (its driver is not installed), or undefined. */
function missingDriver(name: string): DriverMissingError | undefined {
  try {
    checkDriver(name as StoreName);
    return undefined;
  } catch (error) {
    if (error instanceof DriverMissingError) return error;
    throw error;
  }
}

const noDriverLine = (name: string, error: DriverMissingError) =>
  `${name.padEnd(10)} ${'no driver'.padEnd(20)} ${error.install}\n`;

/**
 * The local targets `up` and `down` mean when no store is named: those whose driver is installed
 * (an application installs only its own stores' drivers); each other one gets a line saying what
 * to install, when `say` is set. A store named on the command line is refused with that command.
 */
function targetsWithDriver(say: boolean): string[] {
  return LOCAL_TARGET_NAMES.filter((name) => {
    const missing = missingDriver(name);
    if (missing && say) process.stdout.write(noDriverLine(name, missing));
    return missing === undefined;
  });
}

function checkDockerStores(stores: readonly string[]): void {
  for (const s of stores)
    if (!(s in DOCKER_URLS))
      throw new UsageError(
        `unknown store "${s}" for --docker; expected some of ${Object.keys(DOCKER_URLS).join(', ')}`,
      );
}

/**
 * `docbench up --docker [store…]`: the real servers under Docker, and each one's `--url store=URL`
 * (password masked: it is the one docker/compose.yaml sets; `--docker` fills it in).
 */
export async function upDocker(stores: readonly string[]): Promise<void> {
  checkDockerStores(stores);
  dockerUp(stores);
  for (const name of stores.length > 0 ? stores : Object.keys(DOCKER_URLS))
    process.stdout.write(
      `${name.padEnd(10)} up    --url ${name}=${maskUrl(DOCKER_URLS[name]!)}  (Docker, official image)\n`,
    );
  process.stdout.write(
    'Use them with --docker (e.g. docbench compare --docker), or give --url <store>=URL with the password docker/compose.yaml sets.\n',
  );
}

export async function downDocker(stores: readonly string[]): Promise<void> {
  checkDockerStores(stores);
  dockerDown(stores);
}

/** `--nodes` / `--replicas` of `docbench up`. */
export interface ClusterFlags {
  nodes?: number;
  replicas?: number;
}

/** The local targets that can run a cluster here. */
async function clusterTargets(): Promise<string[]> {
  const names: string[] = [];
  for (const name of targetsWithDriver(false)) if ((await localTarget(name)).cluster) names.push(name);
  return names;
}

/** `docbench up [store…] --nodes N [--replicas R]`: each store's local cluster (one node: its single server). */
async function upClusters(stores: readonly string[], flags: ClusterFlags): Promise<void> {
  const capable = await clusterTargets();
  const names = stores.length > 0 ? stores : capable;
  const nodes = flags.nodes!;
  for (const name of names) {
    const target = await localTarget(name);
    const cluster = target.cluster;
    if (!cluster) {
      const info = await target.info();
      throw new UsageError(
        `--nodes: docbench runs ${name} here as one node only (${info.standIn ? `its local target is a stand-in, ${info.product}` : info.product}); --nodes applies to ${capable.join(', ')}`,
      );
    }
    if (flags.replicas !== undefined && cluster.replicasMeaning === undefined) {
      throw new UsageError(
        `--replicas: ${name} has no replica nodes to ask for; its copies are its replication factor (the local keyspace's is min(3, --nodes))`,
      );
    }
    if (nodes === 1 && !flags.replicas) {
      await up([name]);
      continue;
    }
    if (nodes < cluster.minNodes)
      throw new UsageError(`--nodes ${nodes}: a local ${name} cluster needs at least ${cluster.minNodes} nodes`);
    const status = await cluster.start({ nodes, replicas: flags.replicas ?? 0 }, log);
    const pids = status.nodes.map((n) => n.pid).join(', ');
    process.stdout
      .write(`${name.padEnd(10)} up    ${maskUrl(status.url)}  cluster: ${status.layout}  (${status.started ? 'started' : 'already running'}, pids ${pids})
`);
  }
}

/** `docbench up [store…]`: install on demand and start local servers (all of them by default). */
export async function up(stores: readonly string[], flags: ClusterFlags = {}): Promise<void> {
  if (flags.nodes !== undefined) return upClusters(stores, flags);
  if (flags.replicas !== undefined)
    throw new UsageError('--replicas: give --nodes too (e.g. docbench up redis --nodes 3 --replicas 1)');
  const names = stores.length > 0 ? stores : targetsWithDriver(true);
  for (const name of names) {
    const target = await localTarget(name);
    const status = await target.start(log);
    const info = await target.info();
    const how = status.started === false ? 'already running' : 'started';
    process.stdout
      .write(`${name.padEnd(10)} up    ${maskUrl(status.url)}  ${info.product}${info.standIn ? '  [stand-in]' : ''}  (${how}, pid ${status.pid})
`);
  }
}

/** `docbench down [store…]`: stop the local servers docbench started, clusters' nodes included (by pid file, never anything else). */
export async function down(stores: readonly string[]): Promise<void> {
  const names = stores.length > 0 ? stores : targetsWithDriver(true);
  for (const name of names) {
    const target = await localTarget(name);
    if (target.cluster && (await target.cluster.status())) {
      const pids = await target.cluster.stop(log);
      process.stdout
        .write(`${name.padEnd(10)} cluster ${pids.length > 0 ? `stopped (pids ${pids.join(', ')})` : 'was not running'}
`);
    }
    const before = await target.status();
    await target.stop(log);
    process.stdout.write(`${name.padEnd(10)} ${before.pid !== null ? 'stopped' : 'was not running'}\n`);
  }
}

/** One local server as `docbench status --json` reports it. */
export interface TargetReport {
  store: string;
  running: boolean;
  pid: number | null;
  /** Password masked. */
  url: string;
  product: string;
  standIn: boolean;
  limits: string;
  note?: string;
  cluster?: { nodes: number; up: number; url: string; layout: string };
}

/** `docbench status`: each local target, whether it runs, its URL, what it is; `--json`: the same as one JSON array, for scripts. */
export async function status(options: { json?: boolean } = {}): Promise<void> {
  const reports: TargetReport[] = [];
  for (const name of LOCAL_TARGET_NAMES) {
    const missing = missingDriver(name);
    if (missing) {
      process.stdout.write(noDriverLine(name, missing));
      continue;
    }
    const target = await localTarget(name);
    const s = await target.status();
    const info = await target.info();
    const cluster = await target.cluster?.status();
    const report: TargetReport = {
      store: name,
      running: s.running,
      pid: s.pid,
      url: maskUrl(s.url),
      product: info.product,
      standIn: info.standIn,
      limits: info.limits,
      ...(s.note ? { note: s.note } : {}),
      ...(cluster
        ? {
            cluster: {
              nodes: cluster.nodes.length,
              up: cluster.nodes.filter((n) => n.running).length,
              url: maskUrl(cluster.url),
              layout: cluster.layout,
            },
          }
        : {}),
    };
    if (options.json) {
      reports.push(report);
      continue;
    }
    const state = s.running ? `running (pid ${s.pid})` : 'stopped';
    process.stdout
      .write(`${name.padEnd(10)} ${state.padEnd(20)} ${report.url}  ${info.product}${info.standIn ? '  [stand-in]' : ''}
`);
    if (s.note)
      process.stdout.write(`${''.padEnd(10)} ${s.note}
`);
    if (info.limits) process.stdout.write(`${''.padEnd(10)} ${info.limits}\n`);
    if (cluster) {
      process.stdout.write(
        `${name.padEnd(10)} cluster: ${report.cluster!.up} of ${cluster.nodes.length} nodes up  ${report.cluster!.url}  ${cluster.layout}\n`,
      );
      for (const n of cluster.nodes) {
        const state =
          n.pid === null ? 'stopped' : n.running ? `running (pid ${n.pid})` : `not answering (pid ${n.pid})`;
        process.stdout.write(`${''.padEnd(10)} ${`${n.host}:${n.port}`.padEnd(20)} ${state}\n`);
      }
    }
  }
  if (options.json) process.stdout.write(`${JSON.stringify(reports, null, 2)}\n`);
}

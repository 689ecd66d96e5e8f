/**
 * One service process: connect the store (through the gate), build the app, listen, and shut
 * down gracefully on SIGTERM/SIGINT (stop accepting, finish requests in flight, close the store).
 * Runs alone (`--workers 1`) or as one worker of a cluster.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { describeStore, openStore } from '../session/store-session.ts';
import { describeMachine } from '../results/machine.ts';
import type { StoreInfo } from '../results/schema.ts';
import { StartFailedError } from '../local/process.ts';
import { packageVersion } from '../version.ts';
import { fieldNames } from '../workload/fields.ts';
import { WorkloadError, type WorkloadProperties } from '../workload/properties.ts';
import { loadWorkload } from '../workload/workload-file.ts';
import { buildApp, type ServiceInfo } from './app.ts';
import type { ServeConfig } from './config.ts';
import { RequestCounter, type ServiceStats } from './stats.ts';
import { StoreGate } from './store-gate.ts';
import type { TableLayout } from './validation.ts';
import { registerPlanRoute } from './ycsb-plan-route.ts';

/**
 * A key the probe reads to ask "is the store still there?". It passes key validation on purpose:
 * a reserved-looking key (CouchDB's leading `_`) would make a healthy store answer with an error.
 */
const PROBE_KEY = 'docbench-probe-key';

/** How long in-flight requests get to finish on shutdown before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

export interface RunningService {
  app: FastifyInstance;
  /** `http://host:port` actually bound (the port is chosen by the OS when 0 was asked for). */
  address: string;
  close(): Promise<void>;
}

export interface ServiceProcessOptions {
  config: ServeConfig;
  counter: RequestCounter;
  /** The whole service's stats; a cluster worker asks the primary, a single process answers itself. */
  stats: () => Promise<ServiceStats>;
  log: (line: string) => void;
}

/** Table layout from the workload properties: the same names a direct run would use. */
export function tableLayout(p: WorkloadProperties): TableLayout {
  if (!/^[A-Za-z0-9_]+$/.test(p.table))
    throw new WorkloadError(
      `-p table=${p.table}: the service needs a table name of letters, digits and _ (it is a URL path segment)`,
    );
  return { table: p.table, fieldNames: fieldNames(p.fieldnameprefix, p.fieldcount), maxScanLength: p.maxscanlength };
}

export async function startService(options: ServiceProcessOptions): Promise<RunningService> {
  const { config, log } = options;
  const workload = loadWorkload(config.workloadFiles, config.overrides);
  const { registerScenarioRoutes, scenarioInfo, servedScenarios } = await import('./scenario-routes.ts');
  const served = await servedScenarios(config);
  const properties = workload.properties;
  const layout = tableLayout(properties);
  // The store sizes its pool from the caller's concurrency: here the service's --pool, not the
  // workload's threadcount (which describes a direct run's workers, not this process).
  const storeRequest = { settings: properties.passthrough, concurrency: config.pool };
  const gate = new StoreGate({
    open: async () => (await openStore(config.store, config.url, storeRequest)).store,
    probe: (store) => store.read(layout.table, PROBE_KEY, null),
    retryIntervalMs: config.retryIntervalMs,
    log,
  });
  await gate.start();

  const describe = async (): Promise<StoreInfo | null> => {
    const store = gate.current();
    if (store === null) return null;
    try {
      return await describeStore({
        store,
        url: config.url,
        local: config.local,
        ...(config.targetProduct ? { targetProduct: config.targetProduct } : {}),
        ...(config.targetStandIn ? { targetStandIn: config.targetStandIn } : {}),
      });
    } catch {
      return null;
    }
  };
  const info = async (): Promise<ServiceInfo> => ({
    store: await describe(),
    scenarios: config.scenarios,
    scenarioInfo: scenarioInfo(served),
    layout,
    // Store settings stay private: they may carry credentials, and a client does not need them.
    workload: { name: workload.name, properties: { ...properties, passthrough: {} } },
    service: {
      framework: `fastify ${packageVersion('fastify')}`,
      node: process.version,
      workers: config.workers,
      pool: config.pool,
      pid: process.pid,
    },
    machine: describeMachine(),
  });

  // Declared before the app exists: its hooks read it from the first request on.
  let closing: Promise<void> | null = null;
  const app = buildApp({
    gate,
    layout: config.scenarios.includes('ycsb') ? layout : null,
    bodyLimitBytes: config.bodyLimitBytes,
    counter: options.counter,
    stats: options.stats,
    info,
    log,
    extraRoutes: (instance) => {
      if (config.scenarios.includes('ycsb')) registerPlanRoute(instance, { properties, counter: options.counter });
      registerScenarioRoutes(instance, served, { gate, log });
    },
    closing: () => closing !== null,
    token: config.token,
    timeouts: config.timeouts,
  });
  let address: string;
  try {
    await app.listen({ host: config.host, port: config.port });
    address = boundAddress(config.host, (app.server.address() as AddressInfo).port);
  } catch (error) {
    await gate.close();
    throw listenError(error, config);
  }

  const close = () =>
    (closing ??= (async () => {
      // Stop accepting, let requests in flight finish (their answers close their connections),
      // and close connections as they fall idle; then the store.
      const sweep = setInterval(() => app.server.closeIdleConnections(), 100);
      try {
        await app.close();
      } finally {
        clearInterval(sweep);
      }
      await gate.close();
    })());
  return { app, address, close };
}

/**
 * Stop on SIGTERM/SIGINT: finish what is in flight, close the store, exit 0. A second signal, or
 * requests that do not finish within the grace period, end the process at once.
 */
export function exitOnSignals(
  service: RunningService,
  log: (line: string) => void,
  options = { forceOnRepeat: true },
): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (options.forceOnRepeat) process.exit(1);
      return;
    }
    stopping = true;
    log(`${signal}: finishing requests in flight, then closing the store`);
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    service.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/** A failure to listen, as a one-line user error naming the option to change. */
function listenError(error: unknown, config: Pick<ServeConfig, 'host' | 'port'>): Error {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE')
    return new StartFailedError(
      `cannot listen on ${where}: the port is in use (choose another with --port, or --port 0 for any free one)`,
    );
  if (code === 'EACCES')
    return new StartFailedError(
      `cannot listen on ${where}: permission denied (ports below 1024 need privileges; choose another --port)`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new StartFailedError(`cannot listen on ${where}: no such address on this machine (--host)`);
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * The address the service listens on, with the host it was bound to (Fastify names the first
 * address it finds, 127.0.0.1 even for a service bound to every interface).
 */
export function boundAddress(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

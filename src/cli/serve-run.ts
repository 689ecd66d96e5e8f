/**
 * `docbench serve`'s work (serve-command.ts registers the command): resolve the store, check
 * everything a user could have mistyped, then start one service process or a cluster of them.
 */
import { TOKEN_ENV } from '../service/auth.ts';
import { isClusterWorker, runPrimary, runWorker } from '../service/cluster.ts';
import type { ServeConfig } from '../service/config.ts';
import { exitOnSignals, startService } from '../service/server.ts';
import { scenarioStores, splitScenarioSettings, type ServedName } from '../service/scenarios.ts';
import { scenarioEntry } from '../../scenarios/scenarios.ts';
import { RequestCounter, combineStats } from '../service/stats.ts';
import { STORE_NAMES, storeFactory } from '../stores/stores.ts';
import { UnreachableError } from '../stores/store.ts';
import { loadWorkload } from '../workload/workload-file.ts';
import { UsageError } from './errors.ts';
import { openStore, requestOf } from '../session/store-session.ts';
import { SERVE_DEFAULTS, type ServeOptions } from './serve-command.ts';

const log = (line: string) => process.stderr.write(`docbench serve: ${line}\n`);

/** The store's URL and what it is: the local server's when none is given (started if needed). */
async function resolveStore(
  options: ServeOptions,
): Promise<Pick<ServeConfig, 'url' | 'local' | 'targetProduct' | 'targetStandIn'>> {
  // A given URL is used as it is, even when nothing answers yet: the service starts anyway,
  // answers 503 and connects when the store comes up.
  if (options.url !== undefined) return { url: options.url, local: false };
  const properties = loadWorkload(options.workloadFiles, splitScenarioSettings(options.overrides).ycsb).properties;
  const open = await openStore(options.store, undefined, requestOf(properties));
  await open.store.close();
  return {
    url: open.url,
    local: open.local,
    ...(open.targetProduct ? { targetProduct: open.targetProduct } : {}),
    ...(open.targetStandIn ? { targetStandIn: open.targetStandIn } : {}),
  };
}

/**
 * Run the service until SIGTERM/SIGINT. Prints one line on stdout once it listens,
 * `listening on http://host:port`, which tools (docbench k6, tests) wait for.
 */
export async function serve(options: ServeOptions): Promise<never> {
  if (isClusterWorker()) {
    await runWorker(log);
    return new Promise<never>(() => {});
  }
  // Bad input (unknown store, bad workload, a scenario the store has no code for) fails here,
  // before any process starts.
  await storeFactory(options.store);
  if (options.token === undefined && !isLoopback(options.host)) {
    throw new UsageError(
      `--host ${options.host}: anyone who reaches this address could read, write and delete through the service; give it a token (--token, or ${TOKEN_ENV} in the environment) and send it from k6 (-e ${TOKEN_ENV}=…)`,
    );
  }
  const settings = splitScenarioSettings(options.overrides);
  loadWorkload(options.workloadFiles, settings.ycsb);
  const available = scenarioStores(options.store);
  const scenarios = options.scenarios ?? available.filter((s) => s === 'ycsb' || scenarioEntry(s).isFile === undefined);
  for (const s of scenarios) {
    if (!available.includes(s))
      throw new UsageError(
        `--scenario ${s}: the ${s} scenario does not run on ${options.store} (it does on ${storesOf(s).join(', ')})`,
      );
  }
  for (const [s, given] of Object.entries(settings.scenario)) {
    if (given.length > 0 && !(scenarios as string[]).includes(s))
      throw new UsageError(`-p ${s}.${given[0]}: the ${s} scenario is not served (--scenario ${scenarios.join(',')})`);
  }
  let store: Awaited<ReturnType<typeof resolveStore>>;
  try {
    store = await resolveStore(options);
  } catch (error) {
    if (!(error instanceof UnreachableError) || options.url === undefined) throw error;
    store = { url: options.url, local: false };
  }
  // The scenarios' own settings are checked now too (each service process parses them again).
  if (scenarios.some((s) => s !== 'ycsb'))
    await (
      await import('../service/scenario-routes.ts')
    ).servedScenarios({ scenarios, scenarioSettings: settings.scenario });
  const config: ServeConfig = {
    store: options.store,
    host: options.host,
    port: options.port,
    workers: options.workers,
    pool: options.pool,
    token: options.token ?? null,
    timeouts: {
      requestMs: SERVE_DEFAULTS.requestTimeoutMs,
      headersMs: SERVE_DEFAULTS.headersTimeoutMs,
      idleMs: SERVE_DEFAULTS.idleTimeoutMs,
    },
    bodyLimitBytes: options.bodyLimitBytes,
    retryIntervalMs: options.retryIntervalMs,
    workloadFiles: options.workloadFiles,
    overrides: settings.ycsb,
    scenarios,
    scenarioSettings: settings.scenario,
    ...store,
  };
  let address: string;
  if (options.workers > 1) {
    address = await runPrimary(config, log);
  } else {
    const counter = new RequestCounter();
    const service = await startService({
      config,
      counter,
      stats: async () => combineStats([counter.snapshot()], 1),
      log,
    });
    exitOnSignals(service, log);
    address = service.address;
  }
  process.stdout.write(
    `listening on ${address} (store ${options.store}, ${scenarios.join(' + ')}, ${options.workers} worker${options.workers > 1 ? 's' : ''}, ${options.pool} store connections each${options.token ? ', token required' : ''})\n`,
  );
  if (!isLoopback(options.host))
    log(
      `bound to ${options.host}: requests without the token get 401; the token crosses the network in clear text unless a TLS proxy sits in front`,
    );
  return new Promise<never>(() => {});
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function storesOf(scenario: ServedName): string[] {
  return STORE_NAMES.filter((store) => scenarioStores(store).includes(scenario));
}

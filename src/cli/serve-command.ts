/**
 * `docbench serve --store X [--url …] [--scenario …] [--host 127.0.0.1] [--port …] [--workers N]
 * [--pool N] [--token T] [-P …] [-p …]`: the thin HTTP service k6 drives in end-to-end mode. The
 * store is resolved once here (its local server started when no --url is given); each service
 * process then connects on its own, with a pool of --pool connections.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { checkToken, TOKEN_ENV } from '../service/auth.ts';
import { isClusterWorker, runPrimary, runWorker } from '../service/cluster.ts';
import type { ServeConfig } from '../service/config.ts';
import { exitOnSignals, startService } from '../service/server.ts';
import { resolve } from 'node:path';
import { SERVED_NAMES, scenarioStores, splitScenarioSettings, type ServedName } from '../service/scenarios.ts';
import { scenarioEntry, scenarioOf, SCENARIO_NAMES } from '../../scenarios/scenarios.ts';
import { RequestCounter, combineStats } from '../service/stats.ts';
import { STORE_NAMES, storeFactory } from '../stores/stores.ts';
import { UnreachableError } from '../stores/store.ts';
import { loadWorkload } from '../workload/workload-file.ts';
import { UsageError } from './errors.ts';
import { openStore, requestOf } from '../session/store-session.ts';
import { positiveInteger, collect } from '../common/option-parsers.ts';
import { singleTarget, type TargetFlags } from '../session/store-targets.ts';
import { addTargetOptions } from '../session/target-options.ts';

export const SERVE_DEFAULTS = {
  host: '127.0.0.1',
  port: 18080,
  workers: 1,
  /**
   * Store connections per service process: enough for the VUs `docbench k6` starts by default
   * (8, and 4 × that in the open model), and few enough for any server to accept.
   */
  pool: 64,
  /** A slow client gets this long to send its request (slowloris), its head a third of it. */
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 10_000,
  /**
   * A socket idle this long either way is closed, including one waiting for its answer: the
   * longest a request may take (the persons scripts' first request may build views for minutes).
   */
  idleTimeoutMs: 10 * 60_000,
  /** Large enough for a 20 × 500 B record (record-10kb) many times over; small enough to refuse abuse. */
  bodyLimitBytes: 1024 * 1024,
  retryIntervalMs: 1000,
};

export interface ServeOptions {
  store: string;
  url?: string;
  /** Scenarios to serve; undefined: every scenario that runs on the store. */
  scenarios?: ServedName[];
  host: string;
  port: number;
  workers: number;
  /** Store connections per service process. */
  pool: number;
  /** Bearer token (from --token or DOCBENCH_TOKEN); undefined: none, loopback only. */
  token?: string;
  bodyLimitBytes: number;
  retryIntervalMs: number;
  workloadFiles: string[];
  overrides: string[];
}

const log = (line: string) => process.stderr.write(`docbench serve: ${line}\n`);

/** The store's URL and what it is: the local server's when none is given (started if needed). */
async function resolveStore(options: ServeOptions): Promise<Pick<ServeConfig, 'url' | 'local' | 'targetProduct' | 'targetStandIn'>> {
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
    throw new UsageError(`--host ${options.host}: anyone who reaches this address could read, write and delete through the service; give it a token (--token, or ${TOKEN_ENV} in the environment) and send it from k6 (-e ${TOKEN_ENV}=…)`);
  }
  const settings = splitScenarioSettings(options.overrides);
  loadWorkload(options.workloadFiles, settings.ycsb);
  const available = scenarioStores(options.store);
  const scenarios = options.scenarios ?? available.filter((s) => s === 'ycsb' || scenarioEntry(s).isFile === undefined);
  for (const s of scenarios) {
    if (!available.includes(s)) throw new UsageError(`--scenario ${s}: the ${s} scenario does not run on ${options.store} (it does on ${storesOf(s).join(', ')})`);
  }
  for (const [s, given] of Object.entries(settings.scenario)) {
    if (given.length > 0 && !(scenarios as string[]).includes(s)) throw new UsageError(`-p ${s}.${given[0]}: the ${s} scenario is not served (--scenario ${scenarios.join(',')})`);
  }
  let store: Awaited<ReturnType<typeof resolveStore>>;
  try {
    store = await resolveStore(options);
  } catch (error) {
    if (!(error instanceof UnreachableError) || options.url === undefined) throw error;
    store = { url: options.url, local: false };
  }
  // The scenarios' own settings are checked now too (each service process parses them again).
  if (scenarios.some((s) => s !== 'ycsb')) await (await import('../service/scenario-routes.ts')).servedScenarios({ scenarios, scenarioSettings: settings.scenario });
  const config: ServeConfig = {
    store: options.store,
    host: options.host,
    port: options.port,
    workers: options.workers,
    pool: options.pool,
    token: options.token ?? null,
    timeouts: { requestMs: SERVE_DEFAULTS.requestTimeoutMs, headersMs: SERVE_DEFAULTS.headersTimeoutMs, idleMs: SERVE_DEFAULTS.idleTimeoutMs },
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
    const service = await startService({ config, counter, stats: async () => combineStats([counter.snapshot()], 1), log });
    exitOnSignals(service, log);
    address = service.address;
  }
  process.stdout.write(
    `listening on ${address} (store ${options.store}, ${scenarios.join(' + ')}, ${options.workers} worker${options.workers > 1 ? 's' : ''}, ${options.pool} store connections each${options.token ? ', token required' : ''})\n`,
  );
  if (!isLoopback(options.host)) log(`bound to ${options.host}: requests without the token get 401; the token crosses the network in clear text unless a TLS proxy sits in front`);
  return new Promise<never>(() => {});
}

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError(`--port expects 0 … 65535 (0: any free port), got "${value}"`);
  return n;
};
/**
 * `--scenario ycsb,persons`, or a scenario file (`--scenario blog.yaml`): a file is served as
 * its row's scenario (`file`), its path handed to the service as `-p file.path=…`.
 */
const scenarioList = (value: string, files: string[]): ServedName[] => {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  if (names.length === 0) throw new UsageError('--scenario is empty');
  const out: ServedName[] = [];
  for (const n of names) {
    const scenario = n === 'ycsb' ? 'ycsb' : scenarioOf(n);
    if (scenario === undefined || !SERVED_NAMES.includes(scenario)) {
      throw new UsageError(`--scenario expects some of ${SERVED_NAMES.filter((s) => s === 'ycsb' || scenarioEntry(s).isFile === undefined).join(', ')}, or a scenario file (.yaml, .yml, .json), got "${n}"`);
    }
    if (scenario !== n) files.push(`${scenario}.path=${resolve(n)}`);
    if (!out.includes(scenario)) out.push(scenario);
  }
  return out;
};

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

function storesOf(scenario: ServedName): string[] {
  return STORE_NAMES.filter((store) => scenarioStores(store).includes(scenario));
}

export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description('end-to-end mode: a thin HTTP service (the scenarios as REST routes) in front of a store, for k6 to drive')
    .addOption(new Option('--store <name>', `store: ${STORE_NAMES.join(', ')}`).makeOptionMandatory());
  addTargetOptions(command, { several: false })
    .option('--scenario <list>', `scenarios to serve, comma-separated: ${SERVED_NAMES.filter((s) => s === 'ycsb' || scenarioEntry(s).isFile === undefined).join(', ')}, or a scenario file (default: every built-in one that runs on the store)`)
    .option('--host <address>', 'address to bind; anything but loopback exposes the store to the network', SERVE_DEFAULTS.host)
    .option('--port <n>', 'port to listen on (0: any free port)', port, SERVE_DEFAULTS.port)
    .option('--workers <n>', 'service processes sharing the port (node cluster), to use more cores', positiveInteger('--workers'), SERVE_DEFAULTS.workers)
    .option('--pool <n>', 'store connections per service process (the store pool size; docbench k6 passes its VU count)', positiveInteger('--pool'), SERVE_DEFAULTS.pool)
    .option('--token <token>', `bearer token every request must carry (401 without it); better in the environment as ${TOKEN_ENV} (a command line is visible to other users); required with a --host other than loopback`)
    .option('--body-limit <bytes>', 'largest request body accepted', positiveInteger('--body-limit'), SERVE_DEFAULTS.bodyLimitBytes)
    .option('-P, --workload <file>', 'workload file: the table layout (table, fieldcount, …) and what k6 scripts run; repeatable', collect, [])
    .option('-p, --property <key=value>', `workload or store property, or a scenario setting as <scenario>.<key>=… (${SCENARIO_NAMES.join(', ')}); repeatable`, collect, [])
    .action(async (opts: TargetFlags & { store: string; scenario?: string; host: string; port: number; workers: number; pool: number; token?: string; bodyLimit: number; workload: string[]; property: string[] }) => {
      const target = singleTarget(opts, opts.store);
      const files: string[] = [];
      const scenarios = opts.scenario !== undefined ? scenarioList(opts.scenario, files) : undefined;
      const token = opts.token !== undefined ? checkToken(opts.token, '--token') : process.env[TOKEN_ENV] ? checkToken(process.env[TOKEN_ENV], TOKEN_ENV) : undefined;
      await serve({
        store: opts.store,
        ...(target.url !== undefined ? { url: target.url } : {}),
        ...(scenarios !== undefined ? { scenarios } : {}),
        host: opts.host,
        port: opts.port,
        workers: opts.workers,
        pool: opts.pool,
        ...(token !== undefined ? { token } : {}),
        bodyLimitBytes: opts.bodyLimit,
        retryIntervalMs: SERVE_DEFAULTS.retryIntervalMs,
        workloadFiles: opts.workload,
        // The config file's store settings first: the command line's -p win.
        overrides: [...target.settings, ...files, ...opts.property],
      });
    });
}

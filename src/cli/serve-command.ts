/**
 * `docbench serve --store X [--url …] [--scenario …] [--host 127.0.0.1] [--port …] [--workers N]
 * [--pool N] [--token T] [-P …] [-p …]`: the thin HTTP service k6 drives in end-to-end mode. The
 * store is resolved once here (its local server started when no --url is given); each service
 * process then connects on its own, with a pool of --pool connections.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { resolve } from 'node:path';
import { checkToken, TOKEN_ENV } from '../service/auth.ts';
import { SERVED_NAMES, type ServedName } from '../service/scenarios.ts';
import { scenarioEntry, scenarioOf, SCENARIO_NAMES } from '../../scenarios/scenarios.ts';
import { STORE_NAMES } from '../stores/stores.ts';
import { UsageError } from './errors.ts';
import { positiveInteger, collect } from '../common/option-parsers.ts';
import type { TargetFlags } from '../session/store-targets.ts';
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

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError(`--port expects 0 … 65535 (0: any free port), got "${value}"`);
  return n;
};
/**
 * `--scenario ycsb,persons`, or a scenario file (`--scenario blog.yaml`): a file is served as
 * its row's scenario (`file`), its path handed to the service as `-p file.path=…`.
 */
const scenarioList = (value: string, files: string[]): ServedName[] => {
  const names = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError('--scenario is empty');
  const out: ServedName[] = [];
  for (const n of names) {
    const scenario = n === 'ycsb' ? 'ycsb' : scenarioOf(n);
    if (scenario === undefined || !SERVED_NAMES.includes(scenario)) {
      throw new UsageError(
        `--scenario expects some of ${SERVED_NAMES.filter((s) => s === 'ycsb' || scenarioEntry(s).isFile === undefined).join(', ')}, or a scenario file (.yaml, .yml, .json), got "${n}"`,
      );
    }
    if (scenario !== n) files.push(`${scenario}.path=${resolve(n)}`);
    if (!out.includes(scenario)) out.push(scenario);
  }
  return out;
};

export function registerServeCommand(program: Command): void {
  const command = program
    .command('serve')
    .description(
      'end-to-end mode: a thin HTTP service (the scenarios as REST routes) in front of a store, for k6 to drive',
    )
    .addOption(new Option('--store <name>', `store: ${STORE_NAMES.join(', ')}`).makeOptionMandatory());
  addTargetOptions(command, { several: false })
    .option(
      '--scenario <list>',
      `scenarios to serve, comma-separated: ${SERVED_NAMES.filter((s) => s === 'ycsb' || scenarioEntry(s).isFile === undefined).join(', ')}, or a scenario file (default: every built-in one that runs on the store)`,
    )
    .option(
      '--host <address>',
      'address to bind; anything but loopback exposes the store to the network',
      SERVE_DEFAULTS.host,
    )
    .option('--port <n>', 'port to listen on (0: any free port)', port, SERVE_DEFAULTS.port)
    .option(
      '--workers <n>',
      'service processes sharing the port (node cluster), to use more cores',
      positiveInteger('--workers'),
      SERVE_DEFAULTS.workers,
    )
    .option(
      '--pool <n>',
      'store connections per service process (the store pool size; docbench k6 passes its VU count)',
      positiveInteger('--pool'),
      SERVE_DEFAULTS.pool,
    )
    .option(
      '--token <token>',
      `bearer token every request must carry (401 without it); better in the environment as ${TOKEN_ENV} (a command line is visible to other users); required with a --host other than loopback`,
    )
    .option(
      '--body-limit <bytes>',
      'largest request body accepted',
      positiveInteger('--body-limit'),
      SERVE_DEFAULTS.bodyLimitBytes,
    )
    .option(
      '-P, --workload <file>',
      'workload file: the table layout (table, fieldcount, …) and what k6 scripts run; repeatable',
      collect,
      [],
    )
    .option(
      '-p, --property <key=value>',
      `workload or store property, or a scenario setting as <scenario>.<key>=… (${SCENARIO_NAMES.join(', ')}); repeatable`,
      collect,
      [],
    )
    .action(
      async (
        opts: TargetFlags & {
          store: string;
          scenario?: string;
          host: string;
          port: number;
          workers: number;
          pool: number;
          token?: string;
          bodyLimit: number;
          workload: string[];
          property: string[];
        },
      ) => {
        // The service's modules (Fastify, the cluster, the store) load once the command runs.
        const [{ singleTarget }, { serve }] = await Promise.all([
          import('../session/store-targets.ts'),
          import('./serve-run.ts'),
        ]);
        const target = singleTarget(opts, opts.store);
        const files: string[] = [];
        const scenarios = opts.scenario !== undefined ? scenarioList(opts.scenario, files) : undefined;
        const token =
          opts.token !== undefined
            ? checkToken(opts.token, '--token')
            : process.env[TOKEN_ENV]
              ? checkToken(process.env[TOKEN_ENV], TOKEN_ENV)
              : undefined;
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
      },
    );
}

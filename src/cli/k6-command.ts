/**
 * `docbench k6 <script> --store X[,Y…] [-P …] [-p …] [--direct]`: end-to-end runs, start to finish.
 *
 *   1. k6 from the cache (built once with Go if missing);
 *   2. the data: for YCSB scripts the load phase, direct, exactly as `docbench load --fresh`
 *      (loading through HTTP would measure nothing anyone asked for, and take longer); for the
 *      scenario scripts `docbench seed <scenario>` when asked (--customers, --size);
 *   3. `docbench serve` with the same workload, as a child process on a free port;
 *   4. k6 with the load shape in YCSB's terms mapped to the script's settings (threadcount ->
 *      VUS, operationcount -> ITERATIONS, target -> the open model's RATE, maxexecutiontime ->
 *      DURATION), the k6 process's CPU sampled from outside;
 *   5. the result k6's handleSummary wrote, completed with k6's CPU and this machine, checked
 *      against the result schema, printed as YCSB text and written with --out / --out-dir.
 *
 * `--direct` first runs the same workload directly (`docbench run`, from its own fresh load) on
 * each store, and a table puts both modes side by side with what each side's CPU cost.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { installK6 } from '../local/k6.ts';
import { renderRunContext } from '../report/comparison-table.ts';
import { renderModeComparison } from '../report/mode-comparison.ts';
import { completeResult, readK6Result, runK6 } from './k6-process.ts';
import { loadSettings, maxVusOf } from '../../k6/lib/settings.ts';
import { TOKEN_ENV } from '../service/auth.ts';
import { UserError } from '../common/user-error.ts';
import { renderYcsbText } from '../report/ycsb-text.ts';
import { resultSchema, type Result } from '../results/schema.ts';
import { writeFileAtomic, writeResult } from '../results/write.ts';
import { writeReportBeside } from '../report/report-files.ts';
import { startServiceProcess } from '../service/service-process.ts';
import { SCENARIOS, type ScenarioName } from '../service/scenarios.ts';
import { STORE_NAMES, storeName } from '../stores/stores.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { loadWorkload } from '../workload/workload-file.ts';
import { UsageError } from './errors.ts';
import { flagOverrides, runYcsbPhase } from './ycsb-command.ts';
import { checkOutPath } from '../results/write.ts';
import { interrupts } from '../runner/interrupts.ts';
import { openStore, requestFrom } from '../session/store-session.ts';
import { StoreTargets } from '../session/store-targets.ts';
import { addTargetOptions } from '../session/target-options.ts';
import { positiveInteger, nonNegativeNumber, collect, list } from '../common/option-parsers.ts';

const K6_DIR = fileURLToPath(new URL('../../k6/', import.meta.url));

export interface K6CommandOptions {
  script: string;
  stores: string[];
  /** `--url store=URL` values (a plain URL with one store). */
  url?: string[];
  /** Config file (default: ./docbench.config.json when it exists). */
  config?: string;
  /** Which scenario a script of the user's own drives (shipped scripts are known by name). */
  scenario?: ScenarioName;
  workloadFiles: string[];
  overrides: string[];
  threads?: number;
  target?: number;
  /** Operations to run (YCSB operationcount; k6 ITERATIONS). */
  operations?: number;
  /** Seconds to run (YCSB maxexecutiontime; k6 DURATION). */
  duration?: number;
  workers: number;
  /** Load (YCSB) before the run; false: the table already holds this workload. */
  load: boolean;
  /** Also run the workload directly on each store, for a side-by-side table. */
  direct: boolean;
  /** E-commerce scripts: seed this many customers first (else use the seeded dataset). */
  customers?: number;
  /** Persons script: seed this many documents first (else use the seeded dataset). */
  size?: number;
  nested: boolean;
  /** Extra k6 environment (`P99_MS=50`), applied last. */
  k6Env: string[];
  out?: string;
  outDir?: string;
  quiet: boolean;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** A path as given, or a shipped script by name (`ycsb-a`, `ycsb-a.ts`, `pagination`). */
export function resolveScript(given: string): string {
  for (const candidate of [given, join(K6_DIR, given), join(K6_DIR, `${given}.ts`)]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) return resolve(candidate);
  }
  throw new UsageError(`k6 script ${given} not found (a path, or a script in k6/: ycsb-a … ycsb-h, ycsb, pagination, join, persons)`);
}

/** Which scenario a shipped script drives, by its name; null for a script of the user's own. */
export function scenarioOfScript(script: string): ScenarioName | null {
  const name = basename(script);
  if (/^ycsb(-[a-h])?\.ts$/.test(name)) return 'ycsb';
  if (name === 'pagination.ts' || name === 'join.ts') return 'ecommerce';
  if (name === 'persons.ts') return 'persons';
  return null;
}

/** The workload a per-workload YCSB script runs (`ycsb-a.ts` -> `workloada`), when no -P is given. */
export function workloadOfScript(script: string): string | null {
  const letter = /^ycsb-([a-h])\.ts$/.exec(basename(script))?.[1];
  return letter ? `workload${letter}` : null;
}

/** The k6 settings (k6/lib/settings.ts) for a YCSB workload's load shape, in YCSB's terms. */
export function k6Environment(p: Pick<WorkloadProperties, 'threadcount' | 'target' | 'operationcount' | 'maxexecutiontime' | 'hdrhistogram.percentiles'>): Record<string, string> {
  const env: Record<string, string> = { VUS: String(p.threadcount) };
  if (p.target > 0) {
    env.MODEL = 'open';
    env.RATE = String(p.target);
    const seconds = p.maxexecutiontime > 0 ? p.maxexecutiontime : Math.ceil(p.operationcount / p.target);
    env.DURATION = `${seconds}s`;
    // Enough VUs to keep the rate through latency spikes; k6 adds them only when needed.
    env.MAX_VUS = String(p.threadcount * 4);
  } else {
    env.MODEL = 'closed';
    if (p.operationcount > 0) env.ITERATIONS = String(p.operationcount);
    if (p.maxexecutiontime > 0) env.DURATION = `${p.maxexecutiontime}s`;
    // Both given: the run ends at whichever comes first, as YCSB's does.
    if (p.operationcount === 0 && p.maxexecutiontime === 0) throw new UsageError('the run needs operationcount > 0 or maxexecutiontime > 0');
  }
  if (p['hdrhistogram.percentiles'].length > 0) env.PERCENTILES = p['hdrhistogram.percentiles'].join(',');
  return env;
}

function parseEnvAssignments(assignments: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.slice(0, eq))) throw new UsageError(`--k6-env ${a}: expected NAME=value`);
    env[a.slice(0, eq)] = a.slice(eq + 1);
  }
  return env;
}

/** The load shape with `-e` settings applied last; a ramp (`-e STAGES=…`) replaces the constant shape's length and rate. */
function withExtraEnv(shape: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  const env = { ...shape, ...extra };
  if (extra.STAGES !== undefined) for (const name of ['ITERATIONS', 'DURATION', 'RATE'] as const) if (extra[name] === undefined) delete env[name];
  return env;
}

/** One store's end-to-end run: service up, k6 run, service down; the completed result and k6's own summary. */
async function runEndToEnd(k6: string, script: string, store: string, options: K6CommandOptions, plan: RunPlan, targets: StoreTargets): Promise<{ result: Result; code: number | null; summary: string }> {
  // A pool for every VU the run can have, and a token of this run's own: the service is
  // reachable only from this machine, but it needs no exception to what a real one needs.
  // (k6 reads this process's environment too, so the settings are read from both, as k6 will.)
  const pool = maxVusOf(loadSettings({ ...process.env, ...plan.env }));
  const token = randomBytes(24).toString('hex');
  const serveArgs = ['--store', store, '--port', '0', '--workers', String(options.workers), '--pool', String(pool), '--scenario', plan.scenario, ...plan.serveArgs];
  // The service reads the same config file (its store settings) and is given the resolved URL.
  if (options.config !== undefined) serveArgs.push('--config', options.config);
  const url = targets.urlOf(store);
  if (url !== undefined) serveArgs.push('--url', url);
  const service = await startServiceProcess(serveArgs, { env: { ...process.env, [TOKEN_ENV]: token } });
  const scratch = mkdtempSync(join(tmpdir(), 'docbench-k6-'));
  try {
    const summaryExport = join(scratch, 'summary.json');
    // No RESULT_FILE: the scripts then leave k6's own summary alone, and the result comes from k6's export.
    const env = { ...plan.env, BASE_URL: service.baseUrl, [TOKEN_ENV]: token, RESULT_FILE: '' };
    if (!options.quiet) log(`k6: ${basename(script)} against ${service.baseUrl} (${store}; ${Object.entries(plan.env).map(([k, v]) => `${k}=${v}`).join(' ')}; --pool ${pool})`);
    const run = await runK6(k6, script, env, { quiet: options.quiet, summaryExport });
    let raw: Result;
    try {
      raw = readK6Result(summaryExport, { ...process.env, ...env }, script, run.code);
    } catch (error) {
      const said = service.stderr().trim().split('\n').slice(-3).join(' | ');
      if (error instanceof UserError && said) throw new UsageError(`${error.message} (service: ${said})`);
      throw error;
    }
    const result = resultSchema.parse(completeResult(raw, run, plan.workloadFile, plan.overrides));
    return { result, code: run.code, summary: run.summary };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await service.stop();
  }
}

/** What one script needs, resolved once before any store is touched. */
interface RunPlan {
  scenario: ScenarioName;
  env: Record<string, string>;
  serveArgs: string[];
  /** YCSB: the workload files and overrides (load phase, direct run, service). */
  files: string[];
  overrides: string[];
  workloadFile?: string;
}

function planRun(script: string, options: K6CommandOptions): RunPlan {
  const scenario = scenarioOfScript(script) ?? options.scenario ?? 'ycsb';
  const extraEnv = parseEnvAssignments(options.k6Env);
  if (scenario === 'ycsb') {
    const files = options.workloadFiles.length > 0 ? options.workloadFiles : [workloadOfScript(script) ?? ''].filter(Boolean);
    if (files.length === 0) throw new UsageError(`${basename(script)} runs whatever workload the service runs: give it with -P (e.g. -P workloada)`);
    const overrides = [
      ...options.overrides,
      ...flagOverrides(options),
      ...(options.operations !== undefined ? [`operationcount=${options.operations}`] : []),
      ...(options.duration !== undefined ? [`maxexecutiontime=${options.duration}`] : []),
    ];
    const workload = loadWorkload(files, overrides);
    return {
      scenario,
      env: withExtraEnv(k6Environment(workload.properties), extraEnv),
      serveArgs: [...files.flatMap((f) => ['-P', f]), ...overrides.flatMap((o) => ['-p', o])],
      files,
      overrides,
      workloadFile: files.join(' '),
    };
  }
  if (options.workloadFiles.length > 0) throw new UsageError(`-P: ${basename(script)} drives the ${scenario} scenario, which takes no YCSB workload file`);
  if (options.direct) throw new UsageError(`--direct compares YCSB workloads; for the ${scenario} scenario run its own command for the direct numbers`);
  const env: Record<string, string> = { VUS: String(options.threads ?? 8) };
  if (options.target !== undefined && options.target > 0) {
    env.MODEL = 'open';
    env.RATE = String(options.target);
    env.DURATION = `${options.duration ?? 30}s`;
  } else {
    env.MODEL = 'closed';
    if (options.operations !== undefined) env.ITERATIONS = String(options.operations);
    if (options.duration !== undefined) env.DURATION = `${options.duration}s`;
  }
  if (scenario === 'persons' && options.nested) env.NESTED = 'true';
  // The scenario's own settings (-p maxlimit=…) reach the service as `ecommerce.maxlimit=…`;
  // store settings (redis.*, …) as they are. The persons service must know the seeded size.
  const storePrefixes = STORE_NAMES.map((s) => `${s}.`);
  const serveSettings = options.overrides.map((o) => (storePrefixes.some((p) => o.startsWith(p)) || o.startsWith(`${scenario}.`) ? o : `${scenario}.${o}`));
  if (scenario === 'persons' && options.size !== undefined) serveSettings.push(`persons.size=${options.size}`);
  return { scenario, env: withExtraEnv(env, extraEnv), serveArgs: serveSettings.flatMap((o) => ['-p', o]), files: [], overrides: options.overrides };
}

/**
 * Seed a scenario's dataset with the scenario's own exported seed function (the same code as
 * `docbench seed <scenario>`): e-commerce with --customers, persons with --size [--nested].
 */
async function seedScenario(store: string, scenario: 'ecommerce' | 'persons', options: K6CommandOptions, targets: StoreTargets): Promise<void> {
  const storePrefixes = STORE_NAMES.map((name) => `${name}.`);
  const storeSettings = [...targets.settings(), ...options.overrides.filter((o) => storePrefixes.some((p) => o.startsWith(p)))];
  const own = options.overrides.filter((o) => !storePrefixes.some((p) => o.startsWith(p))).map((o) => o.replace(new RegExp(`^${scenario}\\.`), ''));
  const open = await openStore(store, targets.urlOf(store), requestFrom(storeSettings, 4));
  try {
    // Imported here: the e-commerce generator brings faker, which the rest of the CLI does not need.
    if (scenario === 'ecommerce') {
      const { parseSettings: parseEcommerceSettings } = await import('../../scenarios/ecommerce/settings.ts');
      const { seedEcommerce } = await import('../../scenarios/ecommerce/seed.ts');
      const s = parseEcommerceSettings(own);
      if (!options.quiet) log(`k6: ${store}: seeding ${options.customers} customers (docbench seed ecommerce)`);
      await seedEcommerce({
        store: open.store,
        dataset: { seed: s.seed, customers: options.customers!, ordersPerCustomer: s.orderspercustomer },
        batchSize: s.batchsize,
        concurrency: 4,
        progress: !options.quiet,
        label: `[${store} ecommerce seed]`,
      });
    } else {
      const { parsePersonsSettings, personsCollection } = await import('../service/persons-routes.ts');
      const { PERSONS_DEFAULTS, seedPersons } = await import('../../scenarios/persons/run.ts');
      const s = parsePersonsSettings(own);
      const shape = options.nested ? ('nested' as const) : ('flat' as const);
      if (!options.quiet) log(`k6: ${store}: seeding ${options.size} ${shape} persons (docbench seed persons)`);
      const settings = { seed: s.seed, size: options.size!, shape, indexes: s.indexes, batchSize: PERSONS_DEFAULTS.batchSize, concurrency: PERSONS_DEFAULTS.concurrency, repeat: 1 };
      await seedPersons(open, settings, { progress: !options.quiet, collection: personsCollection(s, shape) });
    }
  } finally {
    await open.store.close();
  }
}

export function runK6Command(options: K6CommandOptions): Promise<Result[]> {
  // Interrupted, k6 writes its summary, that run's result is kept (partial), and no store after it runs.
  return interrupts.holding(() => k6Command(options));
}

async function k6Command(options: K6CommandOptions): Promise<Result[]> {
  checkOutPath(options.out);
  if (options.stores.length === 0) throw new UsageError('--store: give at least one store');
  for (const store of options.stores) storeName(store, '--store');
  const targets = StoreTargets.resolve(options, options.stores);
  const manyResults = options.stores.length > 1 || options.direct;
  if (options.out !== undefined && manyResults) throw new UsageError('--out takes one result; with several stores or --direct use --out-dir');
  const script = resolveScript(options.script);
  const plan = planRun(script, options);
  if (plan.scenario !== 'ecommerce' && options.customers !== undefined) throw new UsageError(`--customers seeds the e-commerce scenario; ${basename(script)} drives ${plan.scenario}`);
  if (plan.scenario !== 'persons' && (options.size !== undefined || options.nested)) throw new UsageError(`--size and --nested seed the persons scenario; ${basename(script)} drives ${plan.scenario}`);
  const outDir = options.outDir ?? (manyResults ? join('results', new Date().toISOString().replace(/[:.]/g, '-')) : undefined);

  const k6 = await installK6(log);
  const results: Result[] = [];
  const failures: string[] = [];
  const ycsbPhase = (phase: 'load' | 'run', store: string) =>
    runYcsbPhase({
      phase,
      store,
      ...(targets.urlOf(store) !== undefined ? { url: targets.urlOf(store)! } : {}),
      storeSettings: targets.settings(),
      workloadFiles: plan.files,
      overrides: plan.overrides,
      fresh: true,
      status: phase === 'run' && !options.quiet,
      print: false,
    });

  // Each result is written as soon as it exists: a later store's failure must not lose it.
  const keep = (r: Result) => {
    results.push(r);
    if (options.out !== undefined) writeResult(options.out, r);
    if (outDir !== undefined) writeResult(join(outDir, `${r.store.name}-${r.workload.name}-${r.mode}.json`), r);
  };

  for (const store of options.stores) {
    if (interrupts.signal !== undefined) break;
    if (plan.scenario === 'ycsb') {
      if (options.direct) {
        if (!options.quiet) log(`k6: ${store}: load, then the direct run (docbench run) for comparison`);
        await ycsbPhase('load', store);
        const direct = await ycsbPhase('run', store);
        process.stdout.write(`${renderYcsbText(direct)}\n`);
        keep(direct);
      }
      if (options.load) {
        if (!options.quiet) log(`k6: ${store}: loading (direct, as docbench load --fresh)`);
        await ycsbPhase('load', store);
      }
    } else if ((plan.scenario === 'ecommerce' && options.customers !== undefined) || (plan.scenario === 'persons' && options.size !== undefined)) {
      await seedScenario(store, plan.scenario, options, targets);
    }
    if (interrupts.signal !== undefined) break;
    const { result, code, summary } = await runEndToEnd(k6, script, store, options, plan, targets);
    // k6's own summary (thresholds, checks, its metrics) beside docbench's result.
    if (!options.quiet) process.stderr.write(summary);
    if (outDir !== undefined) writeFileAtomic(join(outDir, `${result.store.name}-${result.workload.name}-${result.mode}.k6-summary.txt`), summary);
    process.stdout.write(`${renderYcsbText(result)}\n`);
    keep(result);
    // 99: a threshold was crossed (e.g. a failed request); the result is still written, for reading.
    if (code !== 0) failures.push(`${store}: k6 exited with code ${code}${code === 99 ? ' (a threshold was crossed)' : ''}`);
  }

  if (outDir !== undefined) {
    if (manyResults) {
      const table = `${renderModeComparison(results)}\n${renderRunContext(results)}`;
      process.stdout.write(`${table}`);
      writeFileAtomic(join(outDir, 'comparison.md'), table);
    }
    if (!options.quiet) log(`results written to ${outDir}`);
    writeReportBeside(outDir, results, { title: 'Direct and end to end (k6)' });
  }
  if (failures.length > 0) throw new UsageError(`${failures.join('; ')}${options.out ? `; the result is in ${options.out}` : outDir ? `; results are in ${outDir}` : ''}`);
  return results;
}

const scenarioName = (value: string): ScenarioName => {
  if (!(SCENARIOS as readonly string[]).includes(value)) throw new InvalidArgumentError(`--scenario expects one of ${SCENARIOS.join(', ')}, got "${value}"`);
  return value as ScenarioName;
};
export function registerK6Command(program: Command): void {
  const command = program
    .command('k6')
    .description('end-to-end runs: load or seed the store, start docbench serve, drive it with a k6 script, write the results (mode http)')
    .argument('<script>', 'k6 script: a path, or a shipped one by name (ycsb-a … ycsb-h, ycsb, pagination, join, persons)')
    .addOption(new Option('--store <list>', `store, or comma-separated stores: ${STORE_NAMES.join(', ')}`).argParser(list).makeOptionMandatory());
  addTargetOptions(command, { several: true })
    .option('--scenario <name>', `what a script of your own drives: ${SCENARIOS.join(', ')} (shipped scripts are known by name)`, scenarioName)
    .option('-P, --workload <file>', 'YCSB workload file (default for ycsb-<x>: workload<x>); repeatable', collect, [])
    .option('-p, --property <key=value>', 'workload, scenario or store property; repeatable', collect, [])
    .option('--threads <n>', 'threadcount: k6 VUs', positiveInteger('--threads'))
    .option('--target <ops>', 'target operations per second: the open model (constant-arrival-rate)', nonNegativeNumber('--target'))
    .option('--operations <n>', 'operations to run (YCSB operationcount)', positiveInteger('--operations'))
    .option('--duration <seconds>', 'seconds to run (YCSB maxexecutiontime; with operationcount, whichever ends first)', positiveInteger('--duration'))
    .option('--workers <n>', 'service processes (node cluster)', positiveInteger('--workers'), 1)
    .option('--no-load', 'YCSB: skip the load phase (the table already holds this workload)')
    .option('--direct', 'YCSB: also run the workload directly (docbench run) on each store, and print both side by side', false)
    .option('--customers <n>', 'pagination, join: seed this many customers first (docbench seed ecommerce)', positiveInteger('--customers'))
    .option('--size <n>', 'persons: seed this many documents first (docbench seed persons)', positiveInteger('--size'))
    .option('--nested', 'persons: the nested documents', false)
    .option('-e, --k6-env <NAME=value>', 'extra k6 setting (see k6/README.md, e.g. P99_MS=50); repeatable', collect, [])
    .option('--out <file>', 'write the JSON result here (one store, without --direct)')
    .option('--out-dir <dir>', 'write every result and the comparison here (default with several stores or --direct: results/<timestamp>)')
    .option('-q, --quiet', 'no progress on stderr', false)
    .action(async (script: string, opts: Omit<K6CommandOptions, 'script' | 'stores' | 'workloadFiles' | 'overrides'> & { store: string[]; workload: string[]; property: string[] }) => {
      const { store, workload, property, ...rest } = opts;
      await runK6Command({ ...rest, script, stores: store, workloadFiles: workload, overrides: property });
    });
}

/**
 * `docbench k6 <script> --store X[,Y…] [-P …] [-p …] [--direct]`: end-to-end runs, start to finish
 * (k6-command.ts registers the command).
 *
 *   1. k6 from the cache (built once with Go if missing);
 *   2. the data: for YCSB scripts the load phase, direct, exactly as `docbench load --fresh`
 *      (loading through HTTP would measure nothing anyone asked for, and take longer); for a
 *      scenario's scripts its own seeding when asked (--customers, --size, …: each scenario's
 *      cli.ts says which options it takes and what they seed);
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
import { basename, dirname, join, relative, resolve } from 'node:path';
import { installK6 } from '../local/k6.ts';
import { renderRunContext } from '../report/comparison-table.ts';
import { renderModeComparison } from '../report/mode-comparison.ts';
import { completeResult, k6Environment, readK6Result, runK6 } from '../client/k6-process.ts';
import { loadSettings, maxVusOf } from '../../k6/lib/settings.ts';
import { TOKEN_ENV } from '../service/auth.ts';
import { UserError } from '../common/user-error.ts';
import { renderYcsbText } from '../report/ycsb-text.ts';
import { resultSchema, type Result } from '../results/schema.ts';
import { writeFileAtomic, writeResult } from '../results/write.ts';
import { writeReportBeside } from '../report/report-files.ts';
import { startServiceProcess } from '../service/service-process.ts';
import {
  scenarioEntry,
  scenarioName as parseScenarioName,
  scenarioOfScript as shippedScript,
  type ScenarioName,
} from '../../scenarios/scenarios.ts';
import type { ScenarioCommands, ScenarioK6Plan } from '../../scenarios/scenario.ts';
import { storeName } from '../stores/stores.ts';
import { loadWorkload } from '../workload/workload-file.ts';
import { UsageError } from './errors.ts';
import { flagOverrides } from '../common/option-parsers.ts';
import { runYcsbPhase } from './ycsb-command.ts';
import { checkOutPath } from '../results/write.ts';
import { interrupts } from '../common/interrupts.ts';
import { StoreTargets } from '../session/store-targets.ts';
import { PROJECT_ROOT, projectPath } from '../common/project-root.ts';

const K6_DIR = projectPath('k6');

export interface K6CommandOptions {
  script: string;
  stores: string[];
  /** `--url store=URL` values (a plain URL with one store). */
  url?: string[];
  /** Config file (default: ./docbench.config.json when it exists). */
  config?: string;
  /** Which scenario a script of the user's own drives, or a scenario file (shipped scripts are known by name). */
  scenario?: string;
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
  /** Every option commander parsed: the scenarios' own (`--customers`, `--size`, …) among them. */
  all?: Readonly<Record<string, unknown>>;
  /** The options each scenario adds to `docbench k6` (its cli.ts k6Options), by scenario, for refusing one given to another scenario's script. */
  scenarioOptions?: ReadonlyMap<string, readonly string[]>;
  /** Extra k6 environment (`P99_MS=50`), applied last. */
  k6Env: string[];
  out?: string;
  outDir?: string;
  quiet: boolean;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

const ROOT = PROJECT_ROOT;

/** A path as given, or a shipped script by name (`ycsb-a`, `ycsb-a.ts`, `pagination`, a scenario's). */
export function resolveScript(given: string, scenarios: ReadonlyMap<string, ScenarioCommands> = new Map()): string {
  const shipped = [...scenarios.keys()].flatMap((name) =>
    Object.entries(scenarioEntry(name as ScenarioName).k6Scripts ?? {}),
  );
  const byName = shipped.find(([name]) => name === given || `${name}.ts` === given)?.[1];
  for (const candidate of [
    given,
    join(K6_DIR, given),
    join(K6_DIR, `${given}.ts`),
    ...(byName ? [join(ROOT, byName)] : []),
  ]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) return resolve(candidate);
  }
  throw new UsageError(
    `k6 script ${given} not found (a path, or a shipped script: ycsb-a … ycsb-h, ycsb, ${shipped.map(([name]) => name).join(', ')})`,
  );
}

/** Which scenario a shipped script drives; null for a script of the user's own. */
export function scenarioOfScript(script: string): ScenarioName | 'ycsb' | null {
  const name = basename(script);
  if (resolve(dirname(script)) === resolve(K6_DIR) && /^ycsb(-[a-h])?\.ts$/.test(name)) return 'ycsb';
  return shippedScript(relative(ROOT, resolve(script)))?.scenario ?? null;
}

/** The workload a per-workload YCSB script runs (`ycsb-a.ts` -> `workloada`), when no -P is given. */
export function workloadOfScript(script: string): string | null {
  const letter = /^ycsb-([a-h])\.ts$/.exec(basename(script))?.[1];
  return letter ? `workload${letter}` : null;
}

function parseEnvAssignments(assignments: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.slice(0, eq)))
      throw new UsageError(`--k6-env ${a}: expected NAME=value`);
    env[a.slice(0, eq)] = a.slice(eq + 1);
  }
  return env;
}

/** The load shape with `-e` settings applied last; a ramp (`-e STAGES=…`) replaces the constant shape's length and rate. */
function withExtraEnv(shape: Record<string, string>, extra: Record<string, string>): Record<string, string> {
  const env = { ...shape, ...extra };
  if (extra.STAGES !== undefined)
    for (const name of ['ITERATIONS', 'DURATION', 'RATE'] as const) if (extra[name] === undefined) delete env[name];
  return env;
}

/** One store's end-to-end run: service up, k6 run, service down; the completed result and k6's own summary. */
async function runEndToEnd(
  k6: string,
  script: string,
  store: string,
  options: K6CommandOptions,
  plan: RunPlan,
  targets: StoreTargets,
): Promise<{ result: Result; code: number | null; summary: string }> {
  // A pool for every VU the run can have, and a token of this run's own: the service is
  // reachable only from this machine, but it needs no exception to what a real one needs.
  // (k6 reads this process's environment too, so the settings are read from both, as k6 will.)
  const pool = maxVusOf(loadSettings({ ...process.env, ...plan.env }));
  const token = randomBytes(24).toString('hex');
  const serveArgs = [
    '--store',
    store,
    '--port',
    '0',
    '--workers',
    String(options.workers),
    '--pool',
    String(pool),
    '--scenario',
    plan.served,
    ...plan.serveArgs,
  ];
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
    if (!options.quiet)
      log(
        `k6: ${basename(script)} against ${service.baseUrl} (${store}; ${Object.entries(plan.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}; --pool ${pool})`,
      );
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
  scenario: ScenarioName | 'ycsb';
  /** What `docbench serve --scenario` is given: the scenario's name, or its file. */
  served: string;
  /** The scenario's own seeding before the run, when its options asked for it. */
  seed?: ScenarioK6Plan['seed'];
  env: Record<string, string>;
  serveArgs: string[];
  /** YCSB: the workload files and overrides (load phase, direct run, service). */
  files: string[];
  overrides: string[];
  workloadFile?: string;
}

async function planRun(
  script: string,
  options: K6CommandOptions,
  commands: ReadonlyMap<string, ScenarioCommands>,
): Promise<RunPlan> {
  const given = options.scenario;
  const scenario =
    scenarioOfScript(script) ??
    (given === undefined || given === 'ycsb' ? 'ycsb' : parseScenarioName(given, '--scenario', ['ycsb']));
  // A scenario file names itself: it is what the service serves.
  const served =
    scenario !== 'ycsb' && given !== undefined && scenarioEntry(scenario).isFile?.(given) ? resolve(given) : scenario;
  if (scenario !== 'ycsb' && scenarioEntry(scenario).isFile !== undefined && served === scenario)
    throw new UsageError(`${basename(script)} drives a scenario file: name it with --scenario <file>`);
  const extraEnv = parseEnvAssignments(options.k6Env);
  if (scenario === 'ycsb') {
    const files =
      options.workloadFiles.length > 0 ? options.workloadFiles : [workloadOfScript(script) ?? ''].filter(Boolean);
    if (files.length === 0)
      throw new UsageError(
        `${basename(script)} runs whatever workload the service runs: give it with -P (e.g. -P workloada)`,
      );
    const overrides = [
      ...options.overrides,
      ...flagOverrides(options),
      ...(options.operations !== undefined ? [`operationcount=${options.operations}`] : []),
      ...(options.duration !== undefined ? [`maxexecutiontime=${options.duration}`] : []),
    ];
    const workload = loadWorkload(files, overrides);
    return {
      scenario,
      served,
      env: withExtraEnv(k6Environment(workload.properties), extraEnv),
      serveArgs: [...files.flatMap((f) => ['-P', f]), ...overrides.flatMap((o) => ['-p', o])],
      files,
      overrides,
      workloadFile: files.join(' '),
    };
  }
  if (options.workloadFiles.length > 0)
    throw new UsageError(`-P: ${basename(script)} drives the ${scenario} scenario, which takes no YCSB workload file`);
  if (options.direct)
    throw new UsageError(
      `--direct compares YCSB workloads; for the ${scenario} scenario run its own command for the direct numbers`,
    );
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
  const own = (await commands.get(scenario)?.k6Plan?.({
    script: basename(script, '.ts'),
    ...(served !== scenario ? { file: served } : {}),
    ...(options.threads !== undefined ? { threads: options.threads } : {}),
    ...(options.target !== undefined ? { target: options.target } : {}),
    ...(options.operations !== undefined ? { operations: options.operations } : {}),
    ...(options.duration !== undefined ? { duration: options.duration } : {}),
    overrides: options.overrides,
    all: options.all ?? {},
    quiet: options.quiet,
  })) ?? { env: {}, serveSettings: [...options.overrides] };
  return {
    scenario,
    served,
    env: withExtraEnv({ ...env, ...own.env }, extraEnv),
    serveArgs: own.serveSettings.flatMap((o) => ['-p', o]),
    files: [],
    overrides: options.overrides,
    ...(own.seed ? { seed: own.seed } : {}),
  };
}

/** An option of another scenario's (`--customers` for a persons script) is a mistake, not something to ignore. */
function refuseOtherScenariosOptions(
  plan: RunPlan,
  script: string,
  all: Readonly<Record<string, unknown>>,
  scenarioOptions: ReadonlyMap<string, readonly string[]>,
): void {
  for (const [scenario, names] of scenarioOptions) {
    if (scenario === plan.scenario) continue;
    const given = names.find((n) => all[n] !== undefined && all[n] !== false);
    if (given !== undefined)
      throw new UsageError(
        `--${given.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} is the ${scenario} scenario's; ${basename(script)} drives ${plan.scenario}`,
      );
  }
}

export function runK6Command(
  options: K6CommandOptions,
  commands: ReadonlyMap<string, ScenarioCommands> = new Map(),
): Promise<Result[]> {
  // Interrupted, k6 writes its summary, that run's result is kept (partial), and no store after it runs.
  return interrupts.holding(() => k6Command(options, commands));
}

async function k6Command(
  options: K6CommandOptions,
  commands: ReadonlyMap<string, ScenarioCommands>,
): Promise<Result[]> {
  checkOutPath(options.out);
  if (options.stores.length === 0) throw new UsageError('--store: give at least one store');
  for (const store of options.stores) storeName(store, '--store');
  const targets = StoreTargets.resolve(options, options.stores);
  const manyResults = options.stores.length > 1 || options.direct;
  if (options.out !== undefined && manyResults)
    throw new UsageError('--out takes one result; with several stores or --direct use --out-dir');
  // A scenario file as the script: its scenario's own script, with the file as what it drives.
  const fileScenario = [...commands.keys()].find((name) =>
    scenarioEntry(name as ScenarioName).isFile?.(options.script),
  ) as ScenarioName | undefined;
  if (fileScenario !== undefined && options.scenario !== undefined)
    throw new UsageError('give the scenario file as the script or with --scenario, not both');
  const scriptName =
    fileScenario !== undefined ? Object.keys(scenarioEntry(fileScenario).k6Scripts ?? {})[0]! : options.script;
  const script = resolveScript(scriptName, commands);
  const plan = await planRun(
    script,
    fileScenario !== undefined ? { ...options, scenario: options.script } : options,
    commands,
  );
  refuseOtherScenariosOptions(plan, script, options.all ?? {}, options.scenarioOptions ?? new Map());
  const outDir =
    options.outDir ?? (manyResults ? join('results', new Date().toISOString().replace(/[:.]/g, '-')) : undefined);

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
    } else if (plan.seed !== undefined) {
      await plan.seed(store, targets);
    }
    if (interrupts.signal !== undefined) break;
    const { result, code, summary } = await runEndToEnd(k6, script, store, options, plan, targets);
    // k6's own summary (thresholds, checks, its metrics) beside docbench's result.
    if (!options.quiet) process.stderr.write(summary);
    if (outDir !== undefined)
      writeFileAtomic(
        join(outDir, `${result.store.name}-${result.workload.name}-${result.mode}.k6-summary.txt`),
        summary,
      );
    process.stdout.write(`${renderYcsbText(result)}\n`);
    keep(result);
    // 99: a threshold was crossed (e.g. a failed request); the result is still written, for reading.
    if (code !== 0)
      failures.push(`${store}: k6 exited with code ${code}${code === 99 ? ' (a threshold was crossed)' : ''}`);
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
  if (failures.length > 0)
    throw new UsageError(
      `${failures.join('; ')}${options.out ? `; the result is in ${options.out}` : outDir ? `; results are in ${outDir}` : ''}`,
    );
  return results;
}

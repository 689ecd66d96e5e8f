import { join } from 'node:path';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic, writeResult } from '../results/write.ts';
import { renderComparisonTable, renderRunContext } from '../report/comparison-table.ts';
import { writeReportBeside } from '../report/report-files.ts';
import { renderYcsbText } from '../report/ycsb-text.ts';
import { storeName } from '../stores/stores.ts';
import { COMPARE_DEFAULTS } from './compare-defaults.ts';
import { loadWorkload } from '../workload/workload-file.ts';
import { YcsbClient } from '../client/ycsb-client.ts';
import { isUserError, UsageError } from './errors.ts';
import { faultPolicyOf, withWorkloadBudget, type OnError } from '../common/fault-policy.ts';
import { interrupts } from '../common/interrupts.ts';
import { runStoppedError } from '../results/run-stopped.ts';
import { verdictLine, verdictOf } from '../results/verdict.ts';
import { defaultStores, StoreTargets } from '../session/store-targets.ts';
import { loadConfig } from '../session/config-file.ts';
import { flagOverrides } from './ycsb-command.ts';
import type { ProcessesSetting } from '../session/process-count.ts';

export interface CompareOptions {
  /** Undefined: the config file's stores, else every local one. */
  stores?: string[];
  workloads: string[];
  /** Extra -P files (record-shape presets) applied after each workload file. */
  extraFiles: string[];
  overrides: string[];
  threads?: number;
  target?: number;
  /** Worker processes per run (`--processes`: a number, or auto). */
  processes?: ProcessesSetting;
  outDir: string;
  status: boolean;
  /** Use the real servers of docker/compose.yaml (`docbench up --docker`) instead of the local ones. */
  docker?: boolean;
  /** `--url store=URL` values (a plain URL with one store). */
  url?: string[];
  /** Config file (default: ./docbench.config.json when it exists). */
  config?: string;
  /** `--on-error`: go on counting failures (default), or stop a run at its first. */
  onError?: OnError;
}

/**
 * The main job: every workload on every store, each from a fresh load (drop, prepare, load,
 * run), YCSB text for every run on stdout, one comparison table at the end, and every result
 * file plus the table under `outDir`.
 */
/**
 * YCSB's exporter/exportfile describe one run's output; a comparison writes many runs (YCSB text
 * on stdout, a JSON result each, the table), so one export file would be overwritten by each.
 */
function refuseSingleRunExport(p: {
  exporter: string;
  exportfile?: string | undefined;
  'hdrhistogram.fileoutput': boolean;
}): void {
  if (p['hdrhistogram.fileoutput'])
    throw new UsageError(
      "hdrhistogram.fileoutput=true: compare runs many workloads, whose logs would overwrite each other; use docbench run for HdrHistogram logs (each result file keeps every row's series)",
    );
  if (p.exportfile !== undefined)
    throw new UsageError(
      `exportfile=${p.exportfile}: compare writes one result file per run under --out-dir; use docbench run for a single exported run`,
    );
  if (p.exporter !== 'text')
    throw new UsageError(
      `exporter: compare prints YCSB text for every run and writes JSON results under --out-dir; use docbench run for the ${p.exporter} exporter`,
    );
}

export function runComparison(options: CompareOptions): Promise<Result[]> {
  // Interrupted, the workloads done are kept and the table is printed for them.
  return interrupts.holding(() => compare(options));
}

async function compare(options: CompareOptions): Promise<Result[]> {
  const config = loadConfig(options.config);
  const stores = options.stores ?? defaultStores(config, COMPARE_DEFAULTS.stores);
  for (const store of stores) storeName(store, '--stores');
  const targets = StoreTargets.resolve(
    { url: options.url, config: options.config, docker: options.docker },
    stores,
    config,
  ).checkDocker();
  // --processes auto spreads the workers over the cores only when no store of the comparison runs here.
  const localStores = stores.filter((s) => targets.sourceOf(s) === 'local');
  // The config file's store settings first: the defaults and the user's -p come after and win.
  const overrides = [
    ...targets.settings(),
    ...COMPARE_DEFAULTS.overrides,
    ...options.overrides,
    ...flagOverrides(options),
  ];
  const { policy: faults, rest: workloadOverrides } = faultPolicyOf(overrides, options.onError);
  // Parse every workload before touching a store, so a typo fails in a second, not after a run.
  const workloads = options.workloads.map((w) => ({
    given: w,
    loaded: loadWorkload([w, ...options.extraFiles], workloadOverrides),
  }));
  for (const { loaded } of workloads) refuseSingleRunExport(loaded.properties);
  const results: Result[] = [];
  // Load results too: the report's load chart compares them.
  const loads: Result[] = [];
  // A run its failures stopped ends the comparison (after its table) with that run's error.
  let stopped: Error | null = null;
  // A store that fails outside a run (unreachable, gone while its next table was made) is
  // skipped: the other stores still run, and the table holds what did.
  const skipped: { store: string; error: unknown }[] = [];
  for (const storeName of stores) {
    if (interrupts.signal !== undefined || stopped) break;
    const first = workloads[0]!.loaded.properties;
    let client: YcsbClient;
    try {
      // One set of worker processes per store, for every workload's load and run.
      client = await YcsbClient.open({
        store: storeName,
        url: targets.urlOf(storeName),
        properties: first,
        ...(options.processes !== undefined ? { processes: options.processes } : {}),
        localStores,
      });
    } catch (error) {
      skipped.push(skip(storeName, error, stores.length));
      continue;
    }
    try {
      for (const { loaded } of workloads) {
        // Interrupted: the workloads done are kept, and the table is printed for them.
        if (interrupts.signal !== undefined || stopped) break;
        const p = loaded.properties;
        const label = `[${storeName} ${loaded.name}`;
        const common = {
          workload: loaded,
          status: options.status,
          overrides,
          faults: withWorkloadBudget(faults, p),
        };
        const { result: loadResult } = await client.load({ ...common, label: `${label} load]`, table: 'fresh' });
        writeResult(join(options.outDir, `${storeName}-${loaded.name}-load.json`), loadResult);
        // A load cut short is no base for a run: its partial result is written, and the workload ends there.
        if (loadResult.partial !== undefined) {
          process.stdout.write(`\n${renderYcsbText(loadResult)}`);
          stopped = runStoppedError(loadResult, `${storeName} ${loaded.name} load`);
          break;
        }
        // The local server's own CPU and peak memory while the run phase ran (nothing for a remote store).
        const { result: runResult } = await client.run({ ...common, label: `${label} run]`, serverCost: true });
        writeResult(join(options.outDir, `${storeName}-${loaded.name}-run.json`), runResult);
        process.stdout.write(`\n${renderYcsbText(runResult)}`);
        process.stderr.write(
          `${label}] loaded ${loadResult.overall.operations} records in ${(loadResult.overall.runtimeMs / 1000).toFixed(1)} s; ` +
            `ran ${runResult.overall.operations} operations at ${Math.round(runResult.overall.throughputOpsPerSec)} ops/s; verdict: ${verdictLine(verdictOf(runResult))}\n`,
        );
        results.push(runResult);
        loads.push(loadResult);
        stopped = runStoppedError(runResult, `${storeName} ${loaded.name} run`);
      }
    } catch (error) {
      skipped.push(skip(storeName, error, stores.length));
    } finally {
      await client.close();
    }
  }
  // Nothing ran (every store failed, or a signal came first): no table, no folder of nothing.
  if (results.length > 0 || (skipped.length === 0 && stopped === null && interrupts.signal === undefined)) {
    const table = renderComparisonTable(results);
    const context = renderRunContext(results);
    process.stdout.write(`\n${table}\n${context}`);
    writeFileAtomic(join(options.outDir, 'comparison.md'), `${table}\n${context}`);
    process.stderr.write(`results written to ${options.outDir}\n`);
    writeReportBeside(options.outDir, [...results, ...loads]);
  }
  if (interrupts.signal !== undefined)
    process.stderr.write(
      `docbench: interrupted by ${interrupts.signal}: the table holds the ${results.length} run(s) done\n`,
    );
  if (stopped) throw stopped;
  if (skipped.length > 0) throw skippedError(skipped, results.length);
  return results;
}

/** Say at once that a store is skipped (one line; with one store the command's error says it), and keep why for the end. */
function skip(store: string, error: unknown, stores: number): { store: string; error: unknown } {
  if (stores > 1) process.stderr.write(`docbench: ${store}: ${oneLine(error)}; its workloads were skipped\n`);
  return { store, error };
}

function oneLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 300);
}

/** The comparison's end when stores were skipped: the one store's own error when nothing ran, else a summary. */
function skippedError(skipped: readonly { store: string; error: unknown }[], ran: number): Error {
  const only = skipped[0]!;
  if (skipped.length === 1 && ran === 0 && isUserError(only.error)) return only.error;
  return new UsageError(
    `compare: ${skipped.map((s) => s.store).join(', ')} failed and ${skipped.length === 1 ? 'was' : 'were'} skipped (${skipped.map((s) => `${s.store}: ${oneLine(s.error)}`).join('; ')}); the table holds the ${ran} run(s) done`,
  );
}

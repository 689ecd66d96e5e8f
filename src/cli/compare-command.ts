import { join } from 'node:path';
import { buildResult } from '../results/build.ts';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic, writeResult } from '../results/write.ts';
import { renderComparisonTable, renderRunContext } from '../report/comparison-table.ts';
import { renderYcsbText } from '../report/ycsb-text.ts';
import { runLoadPhase, runTransactionPhase } from '../runner/phases.ts';
import type { ProcessPool } from '../runner/process-pool.ts';
import { LOCAL_STORE_NAMES, storeName } from '../stores/stores.ts';
import { CoreWorkload } from '../workload/core-workload.ts';
import { Random } from '../workload/random.ts';
import { loadWorkload } from '../workload/workload-file.ts';
import { UsageError } from './errors.ts';
import { describeStore, openStore } from './store-session.ts';
import { defaultStores, loadConfig, StoreTargets } from './store-targets.ts';
import { flagOverrides, openPool, processesFor } from './ycsb-command.ts';

export const COMPARE_DEFAULTS = {
  /** All five; the three whose local server is a stand-in are labelled so in every row. */
  stores: LOCAL_STORE_NAMES,
  workloads: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
  /**
   * Sized so all of A–H on five stores finishes in well under half an hour on a 2-core machine.
   * maxexecutiontime bounds a workload a store is very slow at (workload E's scans on the MongoDB
   * stand-in) without cutting the others short, which finish their operations first.
   * dataintegrity stays off as in YCSB's own runs: checking every value costs client CPU that
   * would compete with the driver; the integration tests run every workload with it on.
   */
  overrides: ['recordcount=10000', 'operationcount=20000', 'threadcount=8', 'maxexecutiontime=60'],
};

export interface CompareOptions {
  /** Undefined: the config file's stores, else every local one. */
  stores?: string[];
  workloads: string[];
  /** Extra -P files (record-shape presets) applied after each workload file. */
  extraFiles: string[];
  overrides: string[];
  threads?: number;
  target?: number;
  /** Worker processes per run (`--processes`). */
  processes?: number;
  outDir: string;
  status: boolean;
  /** Use the real servers of docker/compose.yaml (`docbench up --docker`) instead of the local ones. */
  docker?: boolean;
  /** `--url store=URL` values (a plain URL with one store). */
  url?: string[];
  /** Config file (default: ./docbench.config.json when it exists). */
  config?: string;
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
function refuseSingleRunExport(p: { exporter: string; exportfile?: string | undefined }): void {
  if (p.exportfile !== undefined) throw new UsageError(`exportfile=${p.exportfile}: compare writes one result file per run under --out-dir; use docbench run for a single exported run`);
  if (p.exporter !== 'text') throw new UsageError(`exporter: compare prints YCSB text for every run and writes JSON results under --out-dir; use docbench run for the ${p.exporter} exporter`);
}

export async function runComparison(options: CompareOptions): Promise<Result[]> {
  const config = loadConfig(options.config);
  const stores = options.stores ?? defaultStores(config, COMPARE_DEFAULTS.stores);
  for (const store of stores) storeName(store, '--stores');
  const targets = StoreTargets.resolve({ url: options.url, config: options.config, docker: options.docker }, stores, config);
  // The config file's store settings first: the defaults and the user's -p come after and win.
  const overrides = [...targets.settings(), ...COMPARE_DEFAULTS.overrides, ...options.overrides, ...flagOverrides(options)];
  // Parse every workload before touching a store, so a typo fails in a second, not after a run.
  const workloads = options.workloads.map((w) => ({ given: w, loaded: loadWorkload([w, ...options.extraFiles], overrides) }));
  for (const { loaded } of workloads) refuseSingleRunExport(loaded.properties);
  const results: Result[] = [];
  for (const storeName of stores) {
    const first = workloads[0]!.loaded.properties;
    const open = await openStore(storeName, targets.urlOf(storeName), first);
    // One set of worker processes per store, for every workload's load and run.
    let pool: ProcessPool | undefined;
    try {
      pool = await openPool(open, storeName, first, processesFor(options.processes, first));
      for (const { loaded } of workloads) {
        const p = loaded.properties;
        const core = new CoreWorkload(p, new Random(p.seed));
        const schema = { table: core.table, fieldNames: core.fieldNames };
        await open.store.drop(schema);
        await open.store.prepare(schema);
        const label = `[${storeName} ${loaded.name}`;
        const common = { store: open.store, workload: core, properties: p, status: options.status, ...(pool ? { pool } : {}) };
        const loadOutcome = await runLoadPhase({ ...common, label: `${label} load]` });
        const runOutcome = await runTransactionPhase({ ...common, label: `${label} run]` });
        const storeInfo = await describeStore(open);
        const context = { kind: 'ycsb', mode: 'direct' as const, workloadName: loaded.name, workloadFile: loaded.files.join(' '), properties: p, overrides, store: storeInfo };
        const loadResult = buildResult(loadOutcome, context);
        const runResult = buildResult(runOutcome, context);
        writeResult(join(options.outDir, `${storeName}-${loaded.name}-load.json`), loadResult);
        writeResult(join(options.outDir, `${storeName}-${loaded.name}-run.json`), runResult);
        process.stdout.write(`\n${renderYcsbText(runResult)}`);
        process.stderr.write(
          `${label}] loaded ${loadResult.overall.operations} records in ${(loadResult.overall.runtimeMs / 1000).toFixed(1)} s; ` +
            `ran ${runResult.overall.operations} operations at ${Math.round(runResult.overall.throughputOpsPerSec)} ops/s\n`,
        );
        results.push(runResult);
      }
    } finally {
      await pool?.close();
      await open.store.close();
    }
  }
  const table = renderComparisonTable(results);
  const context = renderRunContext(results);
  process.stdout.write(`\n${table}\n${context}`);
  writeFileAtomic(join(options.outDir, 'comparison.md'), `${table}\n${context}`);
  process.stderr.write(`results written to ${options.outDir}\n`);
  return results;
}

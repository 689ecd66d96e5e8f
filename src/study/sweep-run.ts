/**
 * Running a sweep (`docbench sweep`, and the YCSB study presets): every cell of the plan on every
 * store, skipping the cells a previous, interrupted run of the same sweep finished; each result
 * written as it completes, with its repetition number, the store server's CPU and memory where
 * the server is local; then a summary table and the HTML report of the whole sweep.
 */
import { join } from 'node:path';
import { buildResult } from '../results/build.ts';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic, writeResult } from '../results/write.ts';
import { REPETITION_PROPERTY } from '../report/groups.ts';
import { loadResults } from '../report/load-results.ts';
import { writeReportBeside } from '../report/report-files.ts';
import type { HtmlReportOptions } from '../report/html-page.ts';
import { startServerCostMeter } from '../local/server-cost.ts';
import { runLoadPhase, runTransactionPhase } from '../runner/phases.ts';
import { storeName } from '../stores/stores.ts';
import { CoreWorkload } from '../workload/core-workload.ts';
import { Random } from '../workload/random.ts';
import { describeStore, openStore, type OpenStore, requestOf } from '../session/store-session.ts';
import { StoreTargets } from '../session/store-targets.ts';
import { loadConfig } from '../session/config-file.ts';
import { cellFile, planCells, readState, SWEEP_DEFAULTS, workloadAt, writeState, type SweepCell, type SweepPlanInput } from './sweep-plan.ts';
import { SweepProgress } from './progress.ts';
import { renderSweepSummary } from './sweep-summary.ts';

export interface SweepOptions {
  outDir: string;
  status: boolean;
  url?: string[];
  config?: string;
  docker?: boolean;
  /** The report's title and extra tables (a study's published figures). */
  report?: HtmlReportOptions | ((results: readonly Result[]) => HtmlReportOptions);
}

export async function runSweep(plan: SweepPlanInput, options: SweepOptions): Promise<Result[]> {
  for (const store of plan.stores) storeName(store, '--stores');
  const config = loadConfig(options.config);
  const targets = StoreTargets.resolve({ url: options.url, config: options.config, docker: options.docker }, plan.stores, config);
  const base = [...targets.settings(), ...SWEEP_DEFAULTS, ...plan.overrides];
  // Parse every workload before touching a store, so a typo fails at once.
  const first = new Map(plan.workloads.map((w) => [w, workloadAt(plan, base, w, plan.records[0]!, plan.threads[0]!)]));
  const inserts = (w: string) => first.get(w)!.properties.insertproportion > 0;
  const cells = planCells(plan, inserts);
  const done = readState(options.outDir, plan);
  const pending = cells.filter((c) => !done.has(c.id));
  if (done.size > 0) process.stderr.write(`sweep: resuming ${options.outDir}: ${cells.length - pending.length} of ${cells.length} runs already done\n`);
  writeState(options.outDir, plan, done);
  const progress = new SweepProgress(cells.length, cells.length - pending.length);
  const maxThreads = Math.max(...plan.threads);
  for (const store of plan.stores) {
    const mine = pending.filter((c) => c.store === store);
    if (mine.length === 0) continue;
    const open = await openStore(store, targets.urlOf(store), requestOf(workloadAt(plan, base, plan.workloads[0]!, plan.records[0]!, maxThreads).properties));
    try {
      let loadedRecords: number | undefined;
      for (const cell of mine) {
        // A resumed sweep starts from a fresh load: what an interrupted run left is unknown.
        if (cell.freshLoad || loadedRecords !== cell.records) {
          await loadCell(open, plan, base, cell, maxThreads, options);
          loadedRecords = cell.records;
        }
        const result = await runCell(open, plan, base, cell, options);
        done.add(cell.id);
        writeState(options.outDir, plan, done);
        progress.cellDone(`${store} ${result.workload.name} ${cell.records.toLocaleString('en-US')} records ${cell.threads} threads rep ${cell.repetition}: ${Math.round(result.overall.throughputOpsPerSec).toLocaleString('en-US')} ops/s`);
      }
    } finally {
      await open.store.close();
    }
  }
  const results = loadResults([options.outDir]).map((l) => l.result);
  const summary = renderSweepSummary(results);
  writeFileAtomic(join(options.outDir, 'sweep.md'), summary);
  process.stdout.write(`\n${summary}`);
  process.stderr.write(`results written to ${options.outDir}\n`);
  const report = typeof options.report === 'function' ? options.report(results) : options.report;
  writeReportBeside(options.outDir, results, report ?? { title: 'docbench sweep' });
  return results;
}

async function loadCell(open: OpenStore, plan: SweepPlanInput, base: readonly string[], cell: SweepCell, maxThreads: number, options: SweepOptions): Promise<void> {
  // Loaded with every thread the sweep uses: the load is preparation here, not a measured cell.
  const loaded = workloadAt(plan, base, cell.workload, cell.records, maxThreads);
  const p = loaded.properties;
  const core = new CoreWorkload(p, new Random(p.seed));
  const schema = { table: core.table, fieldNames: core.fieldNames };
  await open.store.drop(schema);
  await open.store.prepare(schema);
  const outcome = await runLoadPhase({ store: open.store, workload: core, properties: p, status: options.status, label: `[${cell.store} load ${cell.records}]` });
  const result = buildResult(outcome, { kind: 'ycsb', mode: 'direct', workloadName: `load-${cell.records}`, workloadFile: loaded.files.join(' '), properties: p, overrides: [...base], store: await describeStore(open) });
  writeResult(join(options.outDir, 'loads', `${cell.store}-r${cell.records}-before-${cell.id.replace(/\//g, '_')}.json`), result);
}

async function runCell(open: OpenStore, plan: SweepPlanInput, base: readonly string[], cell: SweepCell, options: SweepOptions): Promise<Result> {
  const loaded = workloadAt(plan, base, cell.workload, cell.records, cell.threads);
  const p = loaded.properties;
  // Each repetition draws other keys: the same seed would replay the same operations.
  const core = new CoreWorkload(p, new Random(p.seed + cell.repetition - 1));
  const meter = await startServerCostMeter(cell.store, open.local);
  const outcome = await runTransactionPhase({ store: open.store, workload: core, properties: p, status: options.status, label: `[${cell.store} ${loaded.name} t${cell.threads} rep${cell.repetition}]` });
  const serverCost = meter?.stop();
  const result = buildResult(outcome, { kind: 'ycsb', mode: 'direct', workloadName: loaded.name, workloadFile: loaded.files.join(' '), properties: p, overrides: [...base], store: await describeStore(open) });
  result.workload.properties[REPETITION_PROPERTY] = cell.repetition;
  const withCost: Result = serverCost ? { ...result, serverCost } : result;
  writeResult(join(options.outDir, cellFile(cell, loaded.name)), withCost);
  return withCost;
}

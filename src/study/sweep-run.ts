/**
 * Running a sweep (`docbench sweep`, and the study presets' sweep steps): every cell of the plan
 * in interleaved rounds (sweep-plan.ts), skipping the cells a previous, interrupted run of the
 * same sweep finished; each result written as it completes, with its round and its place in the
 * round; then a summary table and the HTML report of the whole sweep. What a cell runs is the cells' business: YCSB's workloads in
 * this process (sweep-ycsb.ts), a scenario's as its own docbench commands (sweep-scenario.ts).
 */
import { join } from 'node:path';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic } from '../results/write.ts';
import { loadResults } from '../report/load-results.ts';
import { writeReportBeside } from '../report/report-files.ts';
import type { HtmlReportOptions } from '../report/html-page.ts';
import { interrupts } from '../common/interrupts.ts';
import { storeName } from '../stores/stores.ts';
import { StoreTargets } from '../session/store-targets.ts';
import { loadConfig } from '../session/config-file.ts';
import { drawOrderSeed } from '../results/repetition.ts';
import { readState, savedOrderSeed, writeState, type SweepPlanInput } from './sweep-plan.ts';
import type { StoreCells, SweepCells } from './sweep-cells.ts';
import { scenarioCells } from './sweep-scenario.ts';
import { ycsbCells } from './sweep-ycsb.ts';
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

export async function runSweep(asked: SweepPlanInput, options: SweepOptions): Promise<Result[]> {
  for (const store of asked.stores) storeName(store, '--stores');
  // A resumed sweep keeps the orders it started with; a new one draws its seed (recorded in every result).
  const plan: SweepPlanInput = {
    ...asked,
    orderSeed: savedOrderSeed(options.outDir, asked.orderSeed) ?? asked.orderSeed ?? drawOrderSeed(),
  };
  const config = loadConfig(options.config);
  const targets = StoreTargets.resolve(
    { url: options.url, config: options.config, docker: options.docker },
    plan.stores,
    config,
  ).checkDocker();
  // Every cell is planned (and every workload checked) before a store is touched.
  const sweep: SweepCells =
    plan.scenario !== undefined
      ? scenarioCells(plan, targets, options.config, options.outDir, options.status)
      : ycsbCells(plan, targets, options.outDir, options.status);
  const done = readState(options.outDir, plan);
  const pending = sweep.cells.filter((c) => !done.has(c.id));
  if (done.size > 0)
    process.stderr.write(
      `sweep: resuming ${options.outDir}: ${sweep.cells.length - pending.length} of ${sweep.cells.length} runs already done\n`,
    );
  writeState(options.outDir, plan, done);
  const progress = new SweepProgress(sweep.cells.length, sweep.cells.length - pending.length);
  // A signal stops the cell in hand, which keeps what it measured; no other cell starts.
  await interrupts.holding(async () => {
    // Each store is opened at its first cell and stays open across the rounds.
    const open = new Map<string, StoreCells>();
    // The load each store holds now; a resumed sweep starts from a fresh one (what an interrupted run left is unknown).
    const holds = new Map<string, string>();
    let round = 0;
    try {
      for (const cell of pending) {
        if (interrupts.signal !== undefined) break;
        if (options.status && plan.repetitions > 1 && cell.repetition !== round) {
          round = cell.repetition;
          process.stderr.write(`[sweep] round ${round} of ${plan.repetitions}: ${cell.place.order.join(', ')}\n`);
        }
        let cells = open.get(cell.store);
        if (cells === undefined) {
          cells = await sweep.open(cell.store);
          open.set(cell.store, cells);
        }
        if (holds.get(cell.store) !== cell.loadGroup) {
          holds.delete(cell.store);
          await cells.load(cell);
          if (interrupts.signal !== undefined) break;
          holds.set(cell.store, cell.loadGroup);
        }
        const run = await cells.run(cell);
        if (run === undefined) break;
        done.add(cell.id);
        writeState(options.outDir, plan, done);
        progress.cellDone(run.line);
      }
    } finally {
      for (const cells of open.values()) await cells.close();
    }
  });
  if (interrupts.signal !== undefined)
    process.stderr.write(`sweep: interrupted; run the same command again to resume ${options.outDir}\n`);
  const results = loadResults([options.outDir]).map((l) => l.result);
  const summary = renderSweepSummary(results, sweep.unit);
  writeFileAtomic(join(options.outDir, 'sweep.md'), summary);
  process.stdout.write(`\n${summary}`);
  process.stderr.write(`results written to ${options.outDir}\n`);
  const report = typeof options.report === 'function' ? options.report(results) : options.report;
  writeReportBeside(options.outDir, results, report ?? { title: 'docbench sweep' });
  return results;
}

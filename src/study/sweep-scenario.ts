/**
 * A scenario sweep's cells, each seed and run the scenario's own docbench command in a process of
 * its own (docbench-child.ts): what its user would type, so a sweep measures exactly what the
 * scenario's command does (one round of it: the sweep owns the rounds). A run's results, and the
 * seed before it, are stamped with their round; an interrupted cell's files are removed, so it
 * runs again on a resume.
 */
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadResults } from '../report/load-results.ts';
import type { Result } from '../results/schema.ts';
import { writeResult } from '../results/write.ts';
import type { StoreTargets } from '../session/store-targets.ts';
import { commandText, runDocbenchChild } from './docbench-child.ts';
import {
  cellDir,
  ownSize,
  runCommand,
  scenarioSweepOf,
  seedCommand,
  seedFile,
  sizeUnit,
} from './scenario-sweep-plan.ts';
import { stampRound, type SweepCells } from './sweep-cells.ts';
import { planCells, SweepError, type SweepCell, type SweepPlanInput } from './sweep-plan.ts';

/**
 * The store's target as the child is to use it: the URL `--url` or `--docker` resolved here
 * (single-store seed commands take no `--docker`), and the config file, which names the rest.
 */
export function childTargetArgs(store: string, targets: StoreTargets, config: string | undefined): string[] {
  const source = targets.sourceOf(store);
  const url = targets.urlOf(store);
  const urlArgs =
    url !== undefined && (source === '--url' || source === '--docker') ? ['--url', `${store}=${url}`] : [];
  return [...urlArgs, ...(config !== undefined ? ['--config', config] : [])];
}

function resultsIn(dir: string): { path: string; result: Result }[] {
  if (!existsSync(dir)) return [];
  try {
    return loadResults([dir]);
  } catch {
    return [];
  }
}

export function scenarioCells(
  plan: SweepPlanInput,
  targets: StoreTargets,
  config: string | undefined,
  outDir: string,
  status: boolean,
): SweepCells {
  const sweep = scenarioSweepOf(plan.scenario!);
  const unit = sizeUnit(sweep);
  return {
    unit,
    cells: planCells(plan, (w) => sweep.reseeds?.(w) ?? false),
    async open(store) {
      const target = childTargetArgs(store, targets, config);
      return {
        async load(cell: SweepCell) {
          const args = seedCommand(plan, sweep, cell, target, outDir, !status);
          if (args === undefined) return;
          const child = await runDocbenchChild(args);
          if (child.interrupted !== undefined) {
            rmSync(join(outDir, seedFile(cell)), { force: true });
            return;
          }
          if (child.code !== 0)
            throw new SweepError(
              `${commandText(args)} failed (exit ${child.code})${child.error ? `: ${child.error}` : ''}`,
            );
          if (cell.place.rounds > 1)
            for (const { path, result } of resultsIn(join(outDir, seedFile(cell))))
              writeResult(path, { ...result, repetition: cell.place });
        },
        async run(cell: SweepCell) {
          const args = runCommand(plan, sweep, cell, target, outDir, !status);
          const dir = join(outDir, cellDir(cell));
          // What an earlier, interrupted attempt left is no part of this cell.
          rmSync(dir, { recursive: true, force: true });
          const child = await runDocbenchChild(args);
          if (child.interrupted !== undefined) {
            rmSync(dir, { recursive: true, force: true });
            return undefined;
          }
          const written = resultsIn(dir);
          // A run that wrote results and then failed (a wrong answer) is kept: its results say so.
          if (child.code !== 0 && written.length === 0)
            throw new SweepError(
              `${commandText(args)} failed (exit ${child.code})${child.error ? `: ${child.error}` : ''}`,
            );
          const results = written.map(({ path, result }) => {
            const size = sweep.size === undefined ? ownSize(result.workload.properties) : undefined;
            if (size !== undefined && result.workload.properties.size === undefined)
              result.workload.properties.size = size;
            const stamped = stampRound(result, cell);
            writeResult(path, stamped);
            return stamped;
          });
          const runs = results.filter((r) => r.phase === 'run');
          const rate = runs
            .map((r) => `${Math.round(r.overall.throughputOpsPerSec).toLocaleString('en-US')} ops/s`)
            .join(', ');
          const size = sweep.size === undefined ? '' : ` ${cell.records.toLocaleString('en-US')} ${unit}`;
          const failed = child.code !== 0 ? ` (exit ${child.code}${child.error ? `: ${child.error}` : ''})` : '';
          return {
            results,
            line: `${cell.store} ${cell.workload}${size} ${cell.threads} threads rep ${cell.repetition}: ${rate || 'no run result'}${failed}`,
          };
        },
        close: async () => {},
      };
    },
  };
}

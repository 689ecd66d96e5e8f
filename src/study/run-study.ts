/**
 * `docbench study <preset>`: print how the run differs from the paper, refuse `--scale full` when
 * the paper's data cannot fit this machine, run the steps (sweeps: YCSB's in this process, a
 * scenario's each cell its own docbench command) into one folder, stamp every result with the study
 * and its deviations, then print and write the paper's figures beside docbench's and one HTML
 * report over every result with the deviations at its top.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { closestName } from '../common/suggest.ts';
import { UserError } from '../common/user-error.ts';
import { StoreTargets } from '../session/store-targets.ts';
import { loadConfig } from '../session/config-file.ts';
import { loadResults } from '../report/load-results.ts';
import { writeReportBeside } from '../report/report-files.ts';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic, writeResult } from '../results/write.ts';
import { clusterCapable, startStudyClusters } from './clusters.ts';
import { paperStoresHere, studyDesign, studyInfo } from './design.ts';
import { estimateSteps, freeLocalDisk } from './estimate.ts';
import { present } from './docbench-tables.ts';
import { fullVerdict, renderPlan, scaleEstimates, studyArgs } from './plan.ts';
import { STUDIES } from './presets.ts';
import { stepsOf, type DesignItem, type Scale, type StudyContext, type StudyPreset, type StudyStep } from './preset.ts';
import { formatDuration } from './progress.ts';
import { arithmeticTable, deviationsTable, figuresMarkdown, publishedFigures } from './published-tables.ts';
import { ratiosTable } from './ratios.ts';
import { cellsWords, leaveOutGaps, realServerWords, standInGaps, type LeftOut, type StandInGap } from './stand-ins.ts';
import { stepCommands } from './step-commands.ts';
import { runSweep } from './sweep-run.ts';
import { wrap, wrapCommand } from './text-wrap.ts';

export class StudyError extends UserError {}

export function studyPreset(name: string): StudyPreset {
  const preset = STUDIES.find((s) => s.name === name);
  if (preset) return preset;
  const hint = closestName(
    name,
    STUDIES.map((s) => s.name),
  );
  throw new StudyError(
    `study: unknown study "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}; the studies are ${STUDIES.map((s) => s.name).join(', ')}`,
  );
}

export interface StudyOptions {
  scale: Scale;
  stores?: string[];
  variant?: string;
  outDir: string;
  status: boolean;
  url?: string[];
  config?: string;
  docker?: boolean;
  /** `--nodes N`: stores whose local target can run a cluster run on one of N nodes. */
  nodes?: number;
  /** `--repetitions N`: every step's rounds instead of the preset's. */
  repetitions?: number;
}

/** The preset's context for these options, every mistake a one-line error before anything runs. */
function contextOf(
  preset: StudyPreset,
  options: Pick<StudyOptions, 'scale' | 'stores' | 'variant' | 'nodes' | 'repetitions'>,
): StudyContext {
  if (options.variant !== undefined && !preset.variants.some((v) => v.name === options.variant)) {
    const names = preset.variants.map((v) => v.name);
    throw new StudyError(
      `study ${preset.name}: --variant ${options.variant}: ${names.length > 0 ? `expected one of ${names.join(', ')}` : 'this study has no named variants'}`,
    );
  }
  const stores = options.stores ?? paperStoresHere(preset);
  if (stores.length === 0)
    throw new StudyError(
      `study ${preset.name}: none of the paper's stores (${preset.paperStores.map((s) => s.store).join(', ')}) is a docbench store; name some with --stores`,
    );
  return {
    scale: options.scale,
    stores,
    variant: options.variant,
    ...(options.nodes !== undefined ? { nodes: options.nodes } : {}),
    ...(options.repetitions !== undefined ? { repetitions: options.repetitions } : {}),
  };
}

interface Prepared {
  context: StudyContext;
  targets: StoreTargets;
  /** The steps as they will run: the cells the local stand-ins cannot run left out. */
  steps: StudyStep[];
  leftOut: LeftOut[];
  gaps: StandInGap[];
  design: DesignItem[];
}

/** The context, where each store is, what its stand-in cannot run, and the design beside it. */
async function prepare(preset: StudyPreset, options: StudyOptions): Promise<Prepared> {
  const bare = contextOf(preset, options);
  const targets = StoreTargets.resolve(
    { url: options.url, config: options.config, docker: options.docker },
    bare.stores,
    loadConfig(options.config),
  ).checkDocker();
  const sourceOf = (s: string) => targets.sourceOf(s);
  const clusterable = await clusterCapable(bare.stores, sourceOf);
  const nodes = options.nodes ?? 1;
  // Below a store's fewest nodes (a Redis Cluster's 3 masters) it stays on its one node, and is said to.
  const context: StudyContext = {
    ...bare,
    clusterable,
    ...(nodes > 1 ? { clusterStores: clusterable.filter((c) => c.minNodes <= nodes).map((c) => c.store) } : {}),
  };
  const gaps = await standInGaps(context.stores, sourceOf);
  const { steps, leftOut } = leaveOutGaps(stepsOf(preset, context), gaps);
  const design = await studyDesign(preset, context, sourceOf, leftOut);
  return { context, targets, steps, leftOut, gaps, design };
}

/** `--plan`: everything the run would do, at every scale, and nothing run; `details`: every design item and the paper's figures too. */
export async function planStudy(preset: StudyPreset, options: StudyOptions, details = false): Promise<string> {
  const { context, targets, steps, leftOut, gaps, design } = await prepare(preset, options);
  const anyLocal = context.stores.some((s) => targets.sourceOf(s) === 'local');
  const free = freeLocalDisk();
  const estimates = scaleEstimates(preset, context, (all) => leaveOutGaps(all, gaps).steps);
  const verdicts = Object.fromEntries(
    Object.entries(estimates).map(([scale, estimate]) => [
      scale,
      { estimate, ...(scale === 'full' ? { refused: fullVerdict(estimate, free, anyLocal) } : {}) },
    ]),
  ) as Parameters<typeof renderPlan>[0]['verdicts'];
  return renderPlan({ preset, context, steps, design, verdicts, leftOut, details });
}

/** Stamp every result a step wrote with the study, its step and its deviations. */
function stampResults(dir: string, study: NonNullable<Result['study']>): void {
  if (!existsSync(dir)) return;
  let loaded;
  try {
    loaded = loadResults([dir]);
  } catch {
    return; // A step that wrote no result (it failed first) has nothing to stamp.
  }
  for (const { path, result } of loaded) writeResult(path, { ...result, study });
}

export async function runStudy(
  preset: StudyPreset,
  options: StudyOptions,
): Promise<{ results: Result[]; report: string | undefined; seconds: number }> {
  const started = Date.now();
  const { context, targets, steps, leftOut, design } = await prepare(preset, options);
  const toRun = steps.filter((step) => stepCommands(step).length > 0);
  if (toRun.length === 0)
    throw new StudyError(
      `study ${preset.name}: nothing to run: ${leftOut.map((l) => `${l.product} cannot run ${cellsWords(l)} (${l.why.join('; ')})`).join('; ')}. Run it on real servers: ${[...new Set(leftOut.map((l) => l.store))].map((s) => realServerWords(s, studyArgs(preset, context))).join('; ')}`,
    );
  if (context.scale === 'full') {
    const refused = fullVerdict(
      estimateSteps(steps),
      freeLocalDisk(),
      context.stores.some((s) => targets.sourceOf(s) === 'local'),
    );
    if (refused)
      throw new StudyError(
        `study ${preset.name} --scale full: refused: ${refused}. Run --scale small, or name servers with room for it (--url, --docker)`,
      );
  }
  const info = (step?: string) => studyInfo(preset, context, design, step);
  // `--nodes N`: the clusters are started now, and every step is pointed at them by URL.
  const clusterUrls =
    context.nodes !== undefined && context.clusterStores
      ? await startStudyClusters(context.clusterStores, context.nodes, (line) => process.stderr.write(`${line}\n`))
      : [];
  if (clusterUrls.length > 0) options = { ...options, url: [...(options.url ?? []), ...clusterUrls] };
  // The deviations come first: before any result, a reader knows how this run differs from the paper.
  const deviations = deviationsTable(preset, info().deviations);
  process.stdout.write(`${figuresMarkdown([deviations])}\n`);
  for (const l of leftOut)
    process.stderr.write(
      `${wrap(`study ${preset.name}: left out: ${l.store}: ${cellsWords(l)}: ${l.product} cannot run them (${l.why.join('; ')}); on a real server: ${realServerWords(l.store, studyArgs(preset, context))}`, '', '  ')}\n`,
    );
  for (const [i, step] of toRun.entries()) {
    const dir = join(options.outDir, step.name);
    // The step's own commands: what it runs, to run again alone (a study resumes with its --out-dir).
    process.stderr.write(
      `${wrap(`study ${preset.name} (${context.scale}): step ${i + 1}/${toRun.length} ${step.name}: ${step.what}`, '', '  ')}\n${stepCommands(
        step,
      )
        .map((c) => `${wrapCommand(c, '  ')}\n`)
        .join('')}`,
    );
    // A step's sweep resumes from its own state file: a resumed study skips the cells done.
    await runSweep(step.plan, {
      outDir: dir,
      status: options.status,
      ...(options.url ? { url: options.url } : {}),
      ...(options.config ? { config: options.config } : {}),
      docker: options.docker ?? false,
      report: { title: `${preset.title}: step ${step.name}`, study: info(step.name) },
    });
    stampResults(dir, info(step.name));
  }
  const results = loadResults([options.outDir]).map((l) => l.result);
  const figures = [
    deviations,
    ...publishedFigures(preset),
    arithmeticTable(preset),
    ...preset.figures(results),
    ...present([ratiosTable(preset, results)]),
  ];
  const text = `# ${preset.title} (docbench study ${preset.name}, --scale ${context.scale}${context.variant ? `, --variant ${context.variant}` : ''})\n\n${figuresMarkdown(figures)}`;
  writeFileAtomic(join(options.outDir, 'study.md'), text);
  process.stdout.write(`\n${figuresMarkdown(figures.slice(1))}`);
  const report = writeReportBeside(options.outDir, results, {
    title: `${preset.title} — docbench study ${preset.name} --scale ${context.scale}`,
    figures: figures.slice(1),
    charts: preset.charts?.(results) ?? [],
    study: info(),
  });
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(
    `study ${preset.name} (${context.scale}): ${results.length} results in ${formatDuration(seconds)}; ${options.outDir}\n`,
  );
  return { results, report, seconds };
}

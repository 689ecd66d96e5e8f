/**
 * `docbench study <preset>`: run a study's steps (sweeps in this process, scenario commands as
 * their own docbench processes) into one folder, then print and write the published figures
 * beside docbench's and one HTML report over every result, with those tables first.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../common/user-error.ts';
import type { FigureTable } from '../report/html-page.ts';
import { loadResults } from '../report/load-results.ts';
import { markdownTable } from '../report/markdown.ts';
import { REPORT_FILE, writeReportBeside } from '../report/report-files.ts';
import type { Result } from '../results/schema.ts';
import { writeFileAtomic } from '../results/write.ts';
import { closestName } from '../common/suggest.ts';
import { STUDIES, type Scale, type StudyPreset } from './presets.ts';
import { formatDuration } from './progress.ts';
import { runSweep } from './sweep-run.ts';

export class StudyError extends UserError {}

export function studyPreset(name: string): StudyPreset {
  const preset = STUDIES.find((s) => s.name === name);
  if (preset) return preset;
  const hint = closestName(name, STUDIES.map((s) => s.name));
  throw new StudyError(`study: unknown study "${name}"${hint ? ` (did you mean "${hint}"?)` : ''}; the studies are ${STUDIES.map((s) => s.name).join(', ')}`);
}

export interface StudyOptions {
  scale: Scale;
  stores?: string[];
  outDir: string;
  status: boolean;
  url?: string[];
  config?: string;
  docker?: boolean;
}

const DOCBENCH = join(import.meta.dirname, '..', '..', 'bin', 'docbench.js');

function targetArgs(options: StudyOptions): string[] {
  return [...(options.url ?? []).flatMap((u) => ['--url', u]), ...(options.config ? ['--config', options.config] : []), ...(options.docker ? ['--docker'] : [])];
}

export function renderFigures(figures: readonly FigureTable[]): string {
  return figures.map((f) => `## ${f.title}\n\n${f.note}\n\n${markdownTable(f.header, f.rows, f.header.map((_, i) => (i === 0 ? 'left' : 'right')))}`).join('\n');
}

export async function runStudy(preset: StudyPreset, options: StudyOptions): Promise<{ results: Result[]; report: string | undefined; seconds: number }> {
  const started = Date.now();
  const stores = options.stores ?? preset.stores;
  const steps = preset.steps(options.scale, stores);
  for (const [i, step] of steps.entries()) {
    const dir = join(options.outDir, step.name);
    process.stderr.write(`study ${preset.name} (${options.scale}): step ${i + 1}/${steps.length} ${step.name}\n`);
    if (step.kind === 'sweep') {
      await runSweep(step.plan, { outDir: dir, status: options.status, ...(options.url ? { url: options.url } : {}), ...(options.config ? { config: options.config } : {}), docker: options.docker ?? false });
    } else if (existsSync(join(dir, REPORT_FILE))) {
      // A scenario command writes its report last: with it there, the step finished (a resumed study).
      process.stderr.write(`study ${preset.name}: step ${step.name} already done in ${dir}\n`);
    } else {
      const run = spawnSync(process.execPath, [DOCBENCH, ...step.args, ...targetArgs(options), '--out-dir', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
      if (run.status !== 0) throw new StudyError(`study ${preset.name}: step ${step.name} (docbench ${step.args.join(' ')}) failed with exit code ${run.status ?? run.signal}; its results so far are in ${dir}`);
    }
  }
  const results = loadResults([options.outDir]).map((l) => l.result);
  const figures = preset.figures(results);
  const text = `# ${preset.title} (docbench study ${preset.name}, --scale ${options.scale})\n\n${renderFigures(figures)}`;
  writeFileAtomic(join(options.outDir, 'study.md'), text);
  process.stdout.write(`\n${text}`);
  const report = writeReportBeside(options.outDir, results, { title: `${preset.title} — docbench study ${preset.name} --scale ${options.scale}`, figures });
  const seconds = (Date.now() - started) / 1000;
  process.stderr.write(`study ${preset.name} (${options.scale}): ${results.length} results in ${formatDuration(seconds)}; ${options.outDir}\n`);
  return { results, report, seconds };
}

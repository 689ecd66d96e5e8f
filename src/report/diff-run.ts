/** `docbench diff`'s work: load both sides, compare them cell by cell, render the table or the JSON, and the exit code. */
import { diffResults, diffExitCode, type DiffOptions } from './diff.ts';
import { diffJson, renderDiff } from './diff-render.ts';
import { loadResults } from './load-results.ts';

export interface DiffRunOptions extends DiffOptions {
  /** Print JSON (a pipeline's) instead of the table (a person's). */
  json?: boolean;
}

export function runDiff(base: string, next: string, options: DiffRunOptions = {}): { output: string; exitCode: 0 | 1 } {
  const report = diffResults(
    loadResults([base]).map((l) => l.result),
    loadResults([next]).map((l) => l.result),
    options,
  );
  const output = options.json
    ? `${JSON.stringify({ base, new: next, ...diffJson(report) }, null, 2)}\n`
    : `BASE: ${base}\nNEW:  ${next}\n\n${renderDiff(report)}`;
  return { output, exitCode: diffExitCode(report) };
}

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../common/user-error.ts';
import { resultSchema, type Result } from '../results/schema.ts';

/** A result file or folder a report cannot read. */
export class ReportInputError extends UserError {}

export interface LoadedResult {
  path: string;
  result: Result;
}

/**
 * The results named on a report's command line: files are read as result files (an invalid one
 * is an error naming it), folders are searched recursively for `*.json` result files (other JSON
 * beside them, such as a sweep's state file, is skipped: a folder of results holds more than results).
 */
export function loadResults(paths: readonly string[]): LoadedResult[] {
  if (paths.length === 0) throw new ReportInputError('report: name at least one result file or folder');
  const loaded: LoadedResult[] = [];
  for (const path of paths) {
    if (!existsSync(path)) throw new ReportInputError(`${path}: no such file or folder`);
    if (statSync(path).isDirectory()) {
      for (const file of jsonFilesUnder(path)) {
        const result = parseResult(file, false);
        if (result) loaded.push({ path: file, result });
      }
    } else loaded.push({ path, result: parseResult(path, true)! });
  }
  if (loaded.length === 0) throw new ReportInputError(`${paths.join(', ')}: no docbench result files found`);
  return loaded;
}

function jsonFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...jsonFilesUnder(full));
    else if (entry.isFile() && entry.name.endsWith('.json') && !entry.name.startsWith('.')) out.push(full);
  }
  return out;
}

/** A result, or (when `required` is false) undefined for a JSON file that is not one. */
function parseResult(path: string, required: boolean): Result | undefined {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    if (!required) return undefined;
    throw new ReportInputError(`${path}: not a JSON file (${(error as Error).message})`);
  }
  const parsed = resultSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  if (!required) return undefined;
  const issue = parsed.error.issues[0];
  throw new ReportInputError(
    `${path}: not a docbench result file (${issue ? `${issue.path.join('.') || 'top level'}: ${issue.message}` : 'schema mismatch'})`,
  );
}

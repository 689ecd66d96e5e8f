/**
 * Reading a scenario file: YAML or JSON (JSON is YAML, so one parser reads both and knows where
 * every key stands), checked against the schema (schema.ts) and then for sense (compile.ts).
 * Any mistake is one line naming the file, the line and column, the key and what was expected:
 *
 *   blog.yaml:14:7: queries.recent.filter.publishd: posts have no field publishd (did you mean published?)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, join } from 'node:path';
import { isMap, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import type { z } from 'zod';
import { projectPath } from '../../src/common/project-root.ts';
import { UserError } from '../../src/common/user-error.ts';
import { compileScenario } from './compile.ts';
import { SpecError } from './filter.ts';
import type { Scenario } from './model.ts';
import { fileSchema } from './schema.ts';

/** A scenario file that cannot be used: one line, with file, line and key. */
export class ScenarioFileError extends UserError {}

type Path = readonly (string | number)[];

/** Where a key stands: the key itself when `onKey`, else its value. */
function positionOf(
  doc: Document,
  lines: LineCounter,
  path: Path,
  onKey: boolean,
): { line: number; col: number } | undefined {
  let node: unknown = doc.contents;
  let offset: number | undefined = (node as Node | null)?.range?.[0];
  for (const [i, key] of path.entries()) {
    if (isMap(node)) {
      const pair = node.items.find(
        (p) => String((p.key as { value?: unknown } | null)?.value ?? p.key) === String(key),
      );
      if (pair === undefined) break;
      const last = i === path.length - 1;
      const keyNode = pair.key as Node | null;
      node = pair.value;
      offset =
        (last && onKey ? keyNode?.range?.[0] : ((pair.value as Node | null)?.range?.[0] ?? keyNode?.range?.[0])) ??
        offset;
    } else if (isSeq(node) && typeof key === 'number') {
      node = node.items[key];
      offset = (node as Node | null)?.range?.[0] ?? offset;
    } else {
      break;
    }
  }
  return offset === undefined ? undefined : lines.linePos(offset);
}

function where(file: string, doc: Document, lines: LineCounter, path: Path, onKey = false): string {
  const pos = positionOf(doc, lines, path, onKey);
  const at = pos ? `${file}:${pos.line}:${pos.col}` : file;
  return path.length > 0 ? `${at}: ${path.join('.')}` : at;
}

/** The first schema issue as one line: the innermost issue of a union, an unknown key at the key itself. */
function schemaMessage(issue: z.core.$ZodIssue): { path: Path; message: string; onKey: boolean } {
  if (issue.code === 'unrecognized_keys')
    return { path: [...issue.path, issue.keys[0]!] as Path, message: `unknown key "${issue.keys[0]}"`, onKey: true };
  if (issue.code === 'invalid_union') {
    // The branch that got furthest into the value says best what is wrong.
    const deepest = issue.errors.flat().sort((a, b) => b.path.length - a.path.length)[0];
    if (deepest !== undefined && deepest.path.length > 0)
      return schemaMessage({ ...deepest, path: [...issue.path, ...deepest.path] } as z.core.$ZodIssue);
    const path = issue.path as Path;
    const last = path.at(-2);
    if (last === 'writes')
      return {
        path,
        message:
          'expected { insert: <collection> }, { update: <collection>, set: [fields] } or { delete: <collection> }',
        onKey: false,
      };
    if (last === 'params')
      return {
        path,
        message: 'expected { type: pick, from: <collection>.<field> } or a generator ({ type: int, min, max }, …)',
        onKey: false,
      };
    return { path, message: issue.message, onKey: false };
  }
  if (issue.code === 'invalid_value' && issue.path.at(-1) === 'type') {
    return {
      path: issue.path as Path,
      message: `expected type one of ${(issue as { values?: unknown[] }).values?.join(', ') ?? 'the generator types'}`,
      onKey: false,
    };
  }
  return { path: issue.path as Path, message: issue.message, onKey: false };
}

/** Parse and check a scenario file's text; throws ScenarioFileError. */
export function parseScenario(text: string, file: string): Scenario {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error !== undefined) {
    const pos = error.linePos?.[0] ?? lines.linePos(error.pos[0]);
    throw new ScenarioFileError(
      `${file}${pos ? `:${pos.line}:${pos.col}` : ''}: not valid ${/\.json$/i.test(file) ? 'JSON' : 'YAML'}: ${error.message.split('\n')[0]}`,
    );
  }
  const parsed = fileSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    const { path, message, onKey } = schemaMessage(parsed.error.issues[0]!);
    throw new ScenarioFileError(`${where(file, doc, lines, path, onKey)}: ${message}`);
  }
  try {
    return compileScenario(
      parsed.data,
      file,
      basename(file, extname(file))
        .toLowerCase()
        .replace(/[^a-z0-9-]+/g, '-')
        .replace(/^[^a-z]+/, '') || 'scenario',
    );
  } catch (e) {
    if (e instanceof SpecError) throw new ScenarioFileError(`${where(file, doc, lines, e.path)}: ${e.message}`);
    throw e;
  }
}

/** The example scenario files docbench ships. */
const EXAMPLES_DIR = projectPath('fixtures', 'scenarios');

/**
 * A shipped example named as the docs name it, `blog.yaml` or `fixtures/scenarios/blog.yaml`,
 * when no such file is in the working folder (an application that installed docbench has none).
 */
function shippedExample(given: string): string | undefined {
  if (isAbsolute(given) || !['.', join('fixtures', 'scenarios')].includes(dirname(given))) return undefined;
  const path = join(EXAMPLES_DIR, basename(given));
  return existsSync(path) ? path : undefined;
}

/** Read and check a scenario file: a path (from the working folder), or a shipped example by name. */
export function loadScenario(file: string): Scenario {
  const path = existsSync(file) ? file : shippedExample(file);
  if (path === undefined)
    throw new ScenarioFileError(
      `scenario file ${file} not found (neither a path nor a shipped example: ${readdirSync(EXAMPLES_DIR).sort().join(', ')})`,
    );
  return parseScenario(readFileSync(path, 'utf8'), file);
}

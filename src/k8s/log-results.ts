/**
 * Finding a result in a pod's log. A container's log holds stdout and stderr together (status
 * lines, k6's own messages): a part's result is the one line of JSON that `--out -` printed; a
 * k6 runner's is the pretty-printed block its handleSummary wrote to /dev/stdout. Either is taken
 * only when it is a result by the schema, and kept as it was printed (fields this build does not
 * know, such as a newer shard record, are not dropped).
 */
import { resultSchema } from '../results/schema.ts';
import { UsageError } from '../common/user-error.ts';

/** Every JSON object in the text that is a docbench result: one-line, or a `{` … `}` block. */
export function resultsInLog(text: string): Record<string, unknown>[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  const found: Record<string, unknown>[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let candidate: string | undefined;
    if (line.startsWith('{') && line.endsWith('}')) candidate = line;
    else if (line === '{') {
      const end = lines.indexOf('}', i + 1);
      if (end < 0) continue;
      candidate = lines.slice(i, end + 1).join('\n');
      i = end;
    }
    if (candidate === undefined) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(candidate);
    } catch {
      continue;
    }
    if (resultSchema.safeParse(parsed).success) found.push(parsed as Record<string, unknown>);
  }
  return found;
}

/** The one result in a part's log, or a line saying why there is none (with the log's last line). */
export function resultOfLog(text: string, source: string): Record<string, unknown> {
  const found = resultsInLog(text);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new UsageError(`${source}: ${found.length} results in one log; expected one per part`);
  const last = text.trim().split('\n').at(-1)?.trim() ?? '';
  throw new UsageError(
    `${source}: no docbench result in its log${last === '' ? ' (the log is empty)' : `; its last line: ${last.slice(0, 200)}`}`,
  );
}

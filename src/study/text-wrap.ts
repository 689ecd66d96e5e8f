/**
 * Prose and commands in lines a terminal shows whole: `--plan` and a study's status lines fit
 * 120 columns. A line is measured in UTF-8 bytes, never fewer than the columns it takes, so a
 * byte-counting check (`awk 'length > 120'`) agrees; a word longer than a line keeps a line of
 * its own.
 */
export const WIDTH = 120;

const size = (text: string) => Buffer.byteLength(text, 'utf8');

/** Units of text (words) in lines of at most `width`: the first after `first`, the others after `rest`. */
function fill(units: readonly string[], first: string, rest: string, width: number): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const unit of units) {
    if (!empty && size(line) + 1 + size(unit) > width) {
      lines.push(line);
      line = rest + unit;
    } else line += (empty ? '' : ' ') + unit;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** `text`'s words in lines of at most `width` bytes: the first after `first`, the others after `rest`. */
export function wrap(text: string, first = '', rest = first, width = WIDTH): string {
  return fill(text.split(/\s+/).filter(Boolean), first, rest, width).join('\n');
}

/** An argument as a shell takes it: quoted when it holds anything but plain characters. */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, "'\\''")}'`;
}

/**
 * `docbench <args>` as a shell takes it over several lines: an option stays with its value, each
 * line but the last ends in ` \`, the rest indented two more.
 */
export function wrapCommand(args: readonly string[], indent = '', width = WIDTH): string {
  const units = ['docbench'];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg.startsWith('-') && next !== undefined && !next.startsWith('-')) {
      units.push(`${shellWord(arg)} ${shellWord(next)}`);
      i += 1;
    } else units.push(shellWord(arg));
  }
  return fill(units, indent, `${indent}  `, width - 2).join(' \\\n');
}

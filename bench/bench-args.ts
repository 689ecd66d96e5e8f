/**
 * A bench's command line: node's parseArgs (strict), plus `--help` and `-h` (a usage line and
 * every flag with its default, exit 0), and one line naming a flag it does not know or a value
 * it cannot take (exit 2, no stack trace), as docbench's own commands answer bad input.
 */
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export interface BenchFlag {
  readonly type: 'string' | 'boolean';
  readonly default?: string | boolean;
  /** What a string flag's value is, in the help (`<n>`, `<list>`). */
  readonly value?: string;
  /** One line for the help. */
  readonly description: string;
}

export interface BenchCommandLine<O extends Record<string, BenchFlag>> {
  /** The bench's `import.meta.url`: its name in the usage line and in errors. */
  readonly script: string;
  /** One line: what the bench measures. */
  readonly summary: string;
  readonly options: O;
  /** Its positional arguments as the usage line shows them (`<store> [pool]`); without it, none are taken. */
  readonly positionals?: string;
}

type Parsed<O extends Record<string, BenchFlag>> = ReturnType<
  typeof parseArgs<{ options: O; strict: true; allowPositionals: boolean }>
>;

/** `bench/<file>`, as the usage line shows it. */
export function benchName(script: string): string {
  return `bench/${basename(fileURLToPath(script))}`;
}

/** The help of a bench: usage line, summary, flags. */
export function benchHelp(line: BenchCommandLine<Record<string, BenchFlag>>): string {
  const flags = [
    ...Object.entries(line.options).map(([name, flag]) => ({
      left: `--${name}${flag.type === 'string' ? ` ${flag.value ?? '<value>'}` : ''}`,
      right:
        flag.default === undefined || flag.default === false
          ? flag.description
          : `${flag.description} (default: ${String(flag.default)})`,
    })),
    { left: '-h, --help', right: 'this help' },
  ];
  const width = Math.max(...flags.map((f) => f.left.length));
  return [
    `usage: npx tsx ${benchName(line.script)} [options]${line.positionals ? ` ${line.positionals}` : ''}`,
    '',
    line.summary,
    '',
    'options:',
    ...flags.map((f) => `  ${f.left.padEnd(width)}  ${f.right}`),
    '',
  ].join('\n');
}

/** Exit 2 with one line naming what was wrong with the command line. */
export function badArgument(script: string, message: string): never {
  process.stderr.write(`${benchName(script)}: ${message} (see --help)\n`);
  process.exit(2);
}

/** The flags and positionals of this process's command line; answers --help and bad flags itself. */
export function benchArgs<const O extends Record<string, BenchFlag>>(line: BenchCommandLine<O>): Parsed<O> {
  const options = Object.fromEntries(
    Object.entries(line.options).map(([name, { type, default: value }]) => [
      name,
      value === undefined ? { type } : { type, default: value },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: line.positionals !== undefined,
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    // parseArgs's first sentence names the flag or argument ("Unknown option '--x'"); the rest is advice on `--`.
    const first = (error as Error).message.split(/\.\s|\n/)[0]!;
    badArgument(line.script, first.charAt(0).toLowerCase() + first.slice(1));
  }
  if (parsed.values.help) {
    process.stdout.write(benchHelp(line));
    process.exit(0);
  }
  return parsed as Parsed<O>;
}

/** A comma-separated list of names, each one of `allowed` (else exit 2 naming it). */
export function namesOf<T extends string>(script: string, flag: string, text: string, allowed: readonly T[]): T[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) badArgument(script, `${flag} is empty`);
  for (const name of names)
    if (!(allowed as readonly string[]).includes(name))
      badArgument(script, `${flag}: "${name}" is not one of ${allowed.join(', ')}`);
  return names as T[];
}

/** A flag's number: whole unless `whole` is false, at least `min` (default 1); else exit 2 naming it. */
export function numberOf(script: string, flag: string, text: string, { whole = true, min = 1 } = {}): number {
  const n = Number(text.replace(/_/g, ''));
  if (text.trim() === '' || !Number.isFinite(n) || n < min || (whole && !Number.isInteger(n)))
    badArgument(script, `${flag} expects ${whole ? 'a whole number' : 'a number'} >= ${min}, got "${text}"`);
  return n;
}

/**
 * Parsers for command-line option values, shared by every command, so a bad value gets the same
 * one-line message everywhere (commander prints it and exits with code 2 via main.ts).
 * Numbers may use _ as a digit separator (10_000).
 */
import { InvalidArgumentError } from 'commander';
import { UsageError } from './user-error.ts';

const numberOf = (value: string) => Number(value.replace(/_/g, ''));

export const positiveInteger = (flag: string) => (value: string) => {
  const n = numberOf(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InvalidArgumentError(`${flag} expects a whole number >= 1, got "${value}"`);
  return n;
};

/** `--processes <n|auto>`: a whole number, or auto (see session/process-count.ts). */
export const processesSetting =
  (flag: string) =>
  (value: string): number | 'auto' => {
    if (value.trim().toLowerCase() === 'auto') return 'auto';
    const n = numberOf(value);
    if (!Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(`${flag} expects auto or a whole number >= 1, got "${value}"`);
    return n;
  };

/** `--repetitions <n|auto>`: a whole number of rounds, or auto (until precise enough). */
export const repetitionsSetting =
  (flag: string) =>
  (value: string): number | 'auto' => {
    if (value.trim().toLowerCase() === 'auto') return 'auto';
    const n = numberOf(value);
    if (!Number.isInteger(n) || n < 1)
      throw new InvalidArgumentError(`${flag} expects auto or a whole number of rounds >= 1, got "${value}"`);
    return n;
  };

export const nonNegativeInteger = (flag: string) => (value: string) => {
  const n = numberOf(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`${flag} expects a whole number >= 0, got "${value}"`);
  return n;
};

export const nonNegativeNumber = (flag: string) => (value: string) => {
  const n = numberOf(value);
  if (!Number.isFinite(n) || n < 0) throw new InvalidArgumentError(`${flag} expects a number >= 0, got "${value}"`);
  return n;
};

/** `5000`, `10k`, `1.5m`, `10_000`: a whole number >= 1 with an optional k / m suffix; undefined for anything else. */
export function suffixedCount(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim().replace(/_/g, ''));
  if (!m) return undefined;
  const suffix = m[2]!.toLowerCase();
  const n = Number(m[1]) * (suffix === 'k' ? 1000 : suffix === 'm' ? 1_000_000 : 1);
  return Number.isInteger(n) && n >= 1 ? n : undefined;
}

/** A repeatable option: each occurrence appended. */
export const collect = (value: string, previous: string[]) => [...previous, value];

/** A comma-separated list, blanks dropped. */
export const list = (value: string) =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** `-p` overrides implied by the convenience flags (`--threads`, `--target`), applied after the user's own. */
export function flagOverrides(options: { threads?: number | undefined; target?: number | undefined }): string[] {
  const extra: string[] = [];
  if (options.threads !== undefined) extra.push(`threadcount=${options.threads}`);
  if (options.target !== undefined) extra.push(`target=${options.target}`);
  return extra;
}

/** `10%`, `10` or `2.5`: a percentage (the `%` is optional), returned as a fraction. */
export function percentage(flag: string, max = 100) {
  return (text: string): number => {
    const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
    const value = m ? Number(m[1]) : NaN;
    if (!Number.isFinite(value) || value < 0 || value > max)
      throw new UsageError(`${flag}: expected a percentage from 0 to ${max} such as 10 or 10%, got "${text}"`);
    return value / 100;
  };
}

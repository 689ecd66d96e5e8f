/**
 * Store settings (`-p couchdb.maxsockets=8`, URL query parameters, a config file's `settings`):
 * one parser for every store, so every store answers the same way: an unknown `<store>.*` key is
 * a user error with a "did you mean", a bad value is a user error naming the key, its value and
 * what was expected, and a store's code receives typed values with their defaults applied.
 *
 * A store declares its settings once, as a table of specs:
 *
 *   const SETTINGS = {
 *     maxsockets: setting.wholeNumber({ min: 1, describe: 'HTTP connections in the pool' }),
 *     connecttimeout: setting.wholeNumber({ min: 1, fallback: 5000, describe: 'ms to connect' }),
 *   };
 *   const s = parseSettings('couchdb', SETTINGS, options.settings);   // s.maxsockets: number | undefined
 *
 * Values are checked with zod (the schema each helper builds); the messages are docbench's own,
 * one line each.
 */
import { z } from 'zod';
import { didYouMean } from './suggest.ts';
import { UserError } from './user-error.ts';

/** A bad store setting: unknown key or invalid value. */
export class SettingError extends UserError {}

export interface SettingSpec<T> {
  /** Checks and converts the raw string; its failure is reported with `expected`. */
  readonly schema: z.ZodType<T, string>;
  /** What a valid value looks like, for messages: "a whole number >= 1", "true or false". */
  readonly expected: string;
  /** The value when the setting is not given (undefined: the store decides, e.g. from the URL). */
  readonly fallback: T | undefined;
  /** One line for help texts and error messages. */
  readonly describe: string;
}

type Fallback<T, F> = F extends T ? T : T | undefined;

interface Common<T> {
  describe: string;
  fallback?: T;
}

function spec<T>(schema: z.ZodType<T, string>, expected: string, options: Common<T>): SettingSpec<T> {
  return { schema, expected, fallback: options.fallback, describe: options.describe };
}

/** The settings' builders: each returns a spec whose value type includes undefined unless a fallback is given. */
export const setting = {
  boolean<F extends boolean | undefined = undefined>(options: {
    describe: string;
    fallback?: F;
  }): SettingSpec<Fallback<boolean, F>> {
    const schema = z
      .string()
      .transform((v) => v.trim().toLowerCase())
      .pipe(z.enum(['true', 'false']))
      .transform((v) => v === 'true');
    return spec(schema, 'true or false', options as Common<boolean>) as SettingSpec<Fallback<boolean, F>>;
  },

  wholeNumber<F extends number | undefined = undefined>(options: {
    describe: string;
    min?: number;
    max?: number;
    fallback?: F;
  }): SettingSpec<Fallback<number, F>> {
    const min = options.min ?? 0;
    let number = z.number().int().min(min);
    if (options.max !== undefined) number = number.max(options.max);
    const schema = z
      .string()
      .trim()
      .regex(/^-?\d+$/)
      .transform(Number)
      .pipe(number);
    const expected =
      options.max === undefined ? `a whole number >= ${min}` : `a whole number from ${min} to ${options.max}`;
    return spec(schema, expected, options as Common<number>) as SettingSpec<Fallback<number, F>>;
  },

  /** One of a fixed list, matched without regard to case and given back in the list's spelling. */
  oneOf<const V extends string, F extends V | undefined = undefined>(
    values: readonly V[],
    options: { describe: string; fallback?: F },
  ): SettingSpec<Fallback<V, F>> {
    const schema = z
      .string()
      .transform((v) => values.find((candidate) => candidate.toLowerCase() === v.trim().toLowerCase()) ?? v)
      .pipe(z.enum(values as unknown as [V, ...V[]]));
    return spec(
      schema as unknown as z.ZodType<V, string>,
      `one of ${values.join(', ')}`,
      options as Common<V>,
    ) as SettingSpec<Fallback<V, F>>;
  },

  /** Free text, optionally checked by a pattern (`expected` says what it accepts). */
  text<F extends string | undefined = undefined>(options: {
    describe: string;
    fallback?: F;
    pattern?: RegExp;
    expected?: string;
  }): SettingSpec<Fallback<string, F>> {
    const base = z.string().trim();
    const schema = options.pattern ? base.regex(options.pattern) : base.min(1);
    return spec(schema, options.expected ?? 'a non-empty value', options as Common<string>) as SettingSpec<
      Fallback<string, F>
    >;
  },
};

export type SettingsSpecs = Readonly<Record<string, SettingSpec<unknown>>>;
export type SettingsOf<S extends SettingsSpecs> = {
  -readonly [K in keyof S]: S[K] extends SettingSpec<infer T> ? T : never;
};

/**
 * Parse the settings of one store. `given` may hold other stores' keys too (they are ignored);
 * every key under one of `prefixes` (default `<store>.`) must be in `specs`.
 */
export function parseSettings<S extends SettingsSpecs>(
  store: string,
  specs: S,
  given: Readonly<Record<string, string>>,
  prefixes: readonly string[] = [`${store}.`],
): SettingsOf<S> {
  const names = Object.keys(specs);
  const known = names.map((n) => `${prefixes[0]}${n}`);
  const raw = new Map<string, { key: string; value: string }>();
  for (const [key, value] of Object.entries(given)) {
    const prefix = prefixes.find((p) => key.startsWith(p));
    if (prefix === undefined) continue;
    const name = key.slice(prefix.length);
    if (!Object.hasOwn(specs, name)) {
      const list = known.length > 0 ? `${store} understands ${known.join(', ')}` : `${store} has no settings`;
      throw new SettingError(`unknown setting ${key}${didYouMean(`${prefixes[0]}${name}`, known)}; ${list}`);
    }
    raw.set(name, { key, value });
  }
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const s = specs[name]!;
    const given = raw.get(name);
    if (given === undefined) {
      out[name] = s.fallback;
      continue;
    }
    const parsed = s.schema.safeParse(given.value);
    if (!parsed.success) throw new SettingError(`${given.key}=${given.value}: expected ${s.expected} (${s.describe})`);
    out[name] = parsed.data;
  }
  return out as SettingsOf<S>;
}

/** The settings a store understands, one line each, for help texts and the README. */
export function describeSettings(store: string, specs: SettingsSpecs): string[] {
  return Object.entries(specs).map(([name, s]) => {
    const fallback = s.fallback === undefined ? '' : ` (default ${String(s.fallback)})`;
    return `${store}.${name}: ${s.expected}${fallback}: ${s.describe}`;
  });
}

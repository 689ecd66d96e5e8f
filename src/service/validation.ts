/**
 * Every parameter the service accepts, validated before any store sees it. What a careful web
 * developer would write: a key is a bounded string from a small alphabet (never an object, so
 * `{"$gt": ""}`-style operator injection cannot reach any store), field names come from the
 * table's own layout, numbers are whole and in range, and unknown parameters are refused rather
 * than ignored. Each failure names the parameter, so a 400 tells the caller what to fix.
 */
import { z } from 'zod';

/**
 * Longest key accepted: Couchbase's document-key limit (250 bytes), the smallest of the five
 * stores', so a key the service accepts is a key every store can hold.
 */
export const KEY_MAX_LENGTH = 250;

/**
 * Letters, digits and `. _ ~ : -`, not starting with `_` or a punctuation mark. That keeps a key
 * one path segment in CouchDB's URLs (no `/`, no `_design/`-style reserved prefix), free of
 * MongoDB operator characters (`$`) and of spaces and control characters.
 */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._~:-]*$/;

/** A request parameter that failed validation; `parameter` names it, `location` says where it was. */
export class ValidationError extends Error {
  constructor(
    readonly parameter: string,
    readonly location: 'path' | 'query' | 'body',
    message: string,
  ) {
    super(message);
    this.name = 'ValidationError';
  }
}

export const keySchema = z
  .string({ error: 'expected a string' })
  .min(1, 'must not be empty')
  .max(KEY_MAX_LENGTH, `must be at most ${KEY_MAX_LENGTH} characters`)
  .regex(KEY_PATTERN, 'may hold only letters, digits and . _ ~ : - and must start with a letter or digit');

/** What the service knows about the YCSB table it serves: from the workload properties. */
export interface TableLayout {
  table: string;
  fieldNames: readonly string[];
  /** Largest `count` a scan may ask for (YCSB's `maxscanlength`). */
  maxScanLength: number;
}

/** Schemas for one table layout, built once at start-up. */
export interface YcsbSchemas {
  keyParams: z.ZodType<{ key: string }>;
  readQuery: z.ZodType<{ fields?: string | undefined }>;
  /** Routes that take no query parameters refuse any. */
  noQuery: z.ZodType<Record<string, never>>;
  scanQuery: z.ZodType<{ start: string; count: string; fields?: string | undefined }>;
  updateBody: z.ZodType<Record<string, string>>;
  insertBody: z.ZodType<{ key: string; fields: Record<string, string> }>;
  /** Parse a `fields=a,b` list into known field names, de-duplicated and in the table's order (null: all fields). */
  fieldList(value: string | undefined): string[] | null;
}

const WHOLE_NUMBER = /^[0-9]{1,9}$/;

/** A query parameter holding one whole number in [min, max] (below 10^9), as a number. */
export const wholeNumberParam = (min: number, max: number) =>
  z
    .string({ error: 'expected one whole number' })
    .regex(WHOLE_NUMBER, 'expected a whole number')
    .transform(Number)
    .refine((n) => n >= min && n <= max, { error: `must be between ${min} and ${max}` });

export function ycsbSchemas(layout: TableLayout, maxValueLength: number): YcsbSchemas {
  const known = new Set(layout.fieldNames);
  const fieldName = z
    .string()
    .refine((name) => known.has(name), { error: `must be one of ${describeFields(layout.fieldNames)}` });
  // A non-empty map of known field names to strings; z.record refuses arrays and unknown keys.
  const values = z
    .record(
      fieldName,
      z
        .string({ error: 'expected a string value' })
        .max(maxValueLength, `must be at most ${maxValueLength} characters`),
      {
        error: 'expected an object of field name -> string value',
      },
    )
    .refine((record) => Object.keys(record).length > 0, { error: 'must set at least one field' });
  const fieldsParam = z
    .string({ error: 'expected one comma-separated list' })
    .max(16 * 1024, 'is too long')
    .optional();
  return {
    keyParams: z.object({ key: keySchema }).strict(),
    readQuery: z.object({ fields: fieldsParam }).strict(),
    noQuery: z.object({}).strict(),
    scanQuery: z
      .object({
        start: keySchema,
        count: z
          .string({ error: 'expected one whole number' })
          .regex(WHOLE_NUMBER, 'expected a whole number')
          .refine((n) => Number(n) >= 1 && Number(n) <= layout.maxScanLength, {
            error: `must be between 1 and ${layout.maxScanLength}`,
          }),
        fields: fieldsParam,
      })
      .strict(),
    updateBody: values,
    insertBody: z
      .object({ key: keySchema, fields: values }, { error: 'expected an object {"key": …, "fields": {…}}' })
      .strict(),
    fieldList(value) {
      if (value === undefined) return null;
      const names = value.split(',');
      if (names.length > layout.fieldNames.length) {
        throw new ValidationError(
          'fields',
          'query',
          `lists ${names.length} names; ${layout.table} has ${layout.fieldNames.length} fields`,
        );
      }
      const asked = new Set<string>();
      for (const name of names) {
        if (!known.has(name))
          throw new ValidationError(
            'fields',
            'query',
            `"${truncate(name)}" is not a field of ${layout.table}; expected ${describeFields(layout.fieldNames)}`,
          );
        asked.add(name);
      }
      // One list per set of fields, in the table's order, and every field as "all" (null): each
      // distinct list may become a prepared statement in the store (Cassandra in the driver,
      // Couchbase on the server), so `b,a`, `a,b,a` and `a,b` must not make three.
      return asked.size === layout.fieldNames.length ? null : layout.fieldNames.filter((name) => asked.has(name));
    },
  };
}

/**
 * Validate `value` against `schema`, or throw a ValidationError naming the first bad parameter
 * (its path inside the body, e.g. `fields.field3`, or the unknown parameter's own name).
 */
export function parseParameters<T>(schema: z.ZodType<T>, value: unknown, location: ValidationError['location']): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  if (issue.code === 'unrecognized_keys') {
    const name = truncate(String(issue.keys[0] ?? ''));
    throw new ValidationError(name, location, `unknown parameter "${name}"`);
  }
  const parameter = truncate(issue.path.map(String).join('.')) || location;
  // A bad field name inside a record: the record's own issue says what was wrong with the name.
  const message =
    issue.code === 'invalid_key' ? `invalid field name: ${issue.issues[0]?.message ?? 'not allowed'}` : issue.message;
  throw new ValidationError(parameter, location, `${parameter}: ${message}`);
}

function describeFields(names: readonly string[]): string {
  return names.length <= 4 ? names.join(', ') : `${names[0]} … ${names.at(-1)}`;
}

/** Echo at most a short prefix of what the caller sent: an error message is not a mirror. */
function truncate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

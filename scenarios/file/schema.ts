/**
 * The scenario file's format, as one zod schema: what `docbench scenario --schema` prints as
 * JSON Schema (for editors) and what every file is checked against before anything runs. The
 * checks a schema cannot state (a field a query names exists, a reference names a collection,
 * proportions sum to 1, …) are in check.ts; both report the file, line and key (load.ts).
 *
 *   name, seed
 *   collections: <name>: { count, fields: { <field>: <generator> }, indexes: [[field, -field, …]] }
 *   queries:     <name>: { collection, filter, sort, skip, limit, project, join, group, count, params }
 *   writes:      <name>: { insert: <collection> } | { update: <collection>, set: [fields] } | { delete: <collection> }
 *   mix:         <query or write>: proportion
 *   run:         operationcount, threadcount, target, maxexecutiontime, warmuptime, readbacksample, parametersets
 */
import { z } from 'zod';

/** Collection names name a table, keyspace table, database, collection or key prefix on every store. */
export const COLLECTION_NAME = /^[a-z][a-z0-9_]{0,39}$/;
/** Query and write names are row names in results and URL path segments. */
export const OPERATION_NAME = /^[a-z][a-z0-9-]{0,47}$/;
/** A document field: letters, digits and _, not starting with _ (`_id` is docbench's). */
export const FIELD_NAME = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;
/** A dotted path into a document (through nested objects and arrays). */
export const FIELD_PATH = /^(_id|[A-Za-z][A-Za-z0-9_]{0,47}(\.[A-Za-z][A-Za-z0-9_]{0,47})*)$/;
/** A date as the file writes it: an ISO-8601 day or instant (UTC). */
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?Z)?$/;

const collectionName = z
  .string()
  .regex(
    COLLECTION_NAME,
    'expected a collection name: a lower-case letter, then lower-case letters, digits or _ (at most 40)',
  );
const fieldPath = z.string().regex(FIELD_PATH, 'expected a field path such as title or stats.views');
const share = z.number().gt(0).lte(1);
const distribution = z
  .enum(['uniform', 'zipfian', 'normal'])
  .describe(
    "uniform (default), zipfian (the low end most frequent, as YCSB's) or normal (mean, stddev; clamped to min … max)",
  );
const date = z.string().regex(ISO_DATE, 'expected an ISO-8601 date such as 2024-01-31 or 2024-01-31T12:00:00Z');

/** Every generator may leave its field out of a share of the documents. */
const present = {
  present: share.optional().describe('share of documents that have this field (default 1: every document)'),
};

const numeric = {
  distribution: distribution.optional(),
  mean: z.number().optional().describe('normal: the mean (default: the middle of min … max)'),
  stddev: z.number().positive().optional().describe('normal: the standard deviation (default: a sixth of max - min)'),
};

export type GeneratorSpec =
  | { type: 'faker'; method: string; args?: unknown[] | undefined; present?: number | undefined }
  | {
      type: 'int';
      min: number;
      max: number;
      distribution?: 'uniform' | 'zipfian' | 'normal' | undefined;
      mean?: number | undefined;
      stddev?: number | undefined;
      present?: number | undefined;
    }
  | {
      type: 'decimal';
      min: number;
      max: number;
      scale?: number | undefined;
      distribution?: 'uniform' | 'zipfian' | 'normal' | undefined;
      mean?: number | undefined;
      stddev?: number | undefined;
      present?: number | undefined;
    }
  | { type: 'date'; from: string; to: string; present?: number | undefined }
  | { type: 'enum'; values: (string | number)[] | Record<string, number>; present?: number | undefined }
  | { type: 'bool'; probability?: number | undefined; present?: number | undefined }
  | { type: 'array'; of: GeneratorSpec; min: number; max: number; present?: number | undefined }
  | { type: 'object'; fields: Record<string, GeneratorSpec>; present?: number | undefined }
  | { type: 'ref'; collection: string; distribution?: 'uniform' | 'zipfian' | undefined; present?: number | undefined };

export const generatorSchema: z.ZodType<GeneratorSpec> = z.lazy(() =>
  z.discriminatedUnion('type', [
    z
      .object({
        type: z.literal('faker'),
        method: z
          .string()
          .regex(/^[a-z]+\.[A-Za-z]+$/, 'expected a faker method such as person.fullName or lorem.sentence'),
        args: z
          .array(z.unknown())
          .optional()
          .describe('arguments passed to the faker method, e.g. [3] for lorem.words'),
        ...present,
      })
      .strict()
      .describe('a value from a faker method, by name (https://fakerjs.dev/api/)'),
    z
      .object({ type: z.literal('int'), min: z.number().int(), max: z.number().int(), ...numeric, ...present })
      .strict()
      .describe('a whole number in min … max'),
    z
      .object({
        type: z.literal('decimal'),
        min: z.number(),
        max: z.number(),
        scale: z.number().int().min(0).max(6).optional().describe('digits after the point (default 2)'),
        ...numeric,
        ...present,
      })
      .strict()
      .describe('a decimal number in min … max'),
    z
      .object({ type: z.literal('date'), from: date, to: date, ...present })
      .strict()
      .describe(
        'an instant in from … to, stored as an ISO-8601 UTC string with milliseconds (it sorts as it compares)',
      ),
    z
      .object({
        type: z.literal('enum'),
        values: z
          .union([z.array(z.union([z.string(), z.number()])).min(1), z.record(z.string(), z.number().positive())])
          .describe('a list (equally likely) or value: weight'),
        ...present,
      })
      .strict()
      .describe('one of the values'),
    z
      .object({
        type: z.literal('bool'),
        probability: share.optional().describe('share of true (default 0.5)'),
        ...present,
      })
      .strict()
      .describe('true or false'),
    z
      .object({
        type: z.literal('array'),
        of: generatorSchema,
        min: z.number().int().min(0),
        max: z.number().int().min(0).max(100),
        ...present,
      })
      .strict()
      .describe('an array of min … max values'),
    z
      .object({
        type: z.literal('object'),
        fields: z.record(z.string().regex(FIELD_NAME, 'expected a field name'), generatorSchema),
        ...present,
      })
      .strict()
      .describe('a nested object'),
    z
      .object({
        type: z.literal('ref'),
        collection: collectionName,
        distribution: z.enum(['uniform', 'zipfian']).optional(),
        ...present,
      })
      .strict()
      .describe("the _id of one of another collection's documents"),
  ]),
);

const pickSchema = z
  .object({
    type: z.literal('pick'),
    from: z
      .string()
      .regex(
        /^[a-z][a-z0-9_]*\.(_id|[A-Za-z][A-Za-z0-9_.]*)$/,
        'expected <collection>.<field path>, e.g. posts.tags or authors._id',
      ),
    count: z.number().int().min(1).max(100).optional().describe('a list of this many values (for $in, $nin)'),
  })
  .strict()
  .describe(
    'a value of this field in a random existing document (one element of an array); so the query finds something',
  );

export type ParamSpec = GeneratorSpec | z.output<typeof pickSchema>;
export const paramSchema: z.ZodType<ParamSpec> = z.lazy(() => z.union([pickSchema, generatorSchema]));

const projection = z.array(fieldPath).min(1);

export const querySchema = z
  .object({
    collection: collectionName,
    filter: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('MongoDB query filter; a string "$name" is the parameter name'),
    sort: z
      .record(fieldPath, z.union([z.literal(1), z.literal(-1)]))
      .optional()
      .describe('field: 1 (ascending) or -1 (descending); ties broken by _id in the direction of the last key'),
    skip: z.number().int().min(0).max(10_000).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
    project: projection.optional().describe('the fields returned (with _id); default: whole documents'),
    join: z
      .object({
        from: collectionName,
        on: fieldPath.describe("this collection's ref field"),
        as: z.string().regex(FIELD_NAME, 'expected a field name'),
        project: projection.optional(),
      })
      .strict()
      .optional()
      .describe('the document a ref field names, under `as` (one level)'),
    group: z
      .object({ by: fieldPath, sum: fieldPath.optional() })
      .strict()
      .optional()
      .describe('one row per value of `by`: its count, and the sum of `sum`'),
    count: z.literal(true).optional().describe('the number of matching documents'),
    params: z.record(z.string().regex(/^[A-Za-z][A-Za-z0-9_]*$/, 'expected a parameter name'), paramSchema).optional(),
  })
  .strict();

export const writeSchema = z.union([
  z.object({ insert: collectionName }).strict().describe("insert a new document, generated as the collection's are"),
  z
    .object({ update: collectionName, set: z.array(fieldPath).min(1) })
    .strict()
    .describe('set these fields of a random document to newly generated values'),
  z.object({ delete: collectionName }).strict().describe('delete a random document'),
]);

export const runSchema = z
  .object({
    operationcount: z.number().int().min(0).optional(),
    threadcount: z.number().int().min(1).max(1024).optional(),
    target: z.number().min(0).optional().describe('operations per second (0: as fast as the store answers)'),
    maxexecutiontime: z.number().int().min(0).optional().describe('seconds (0: no limit)'),
    warmuptime: z.number().int().min(0).optional().describe('seconds run but not recorded'),
    readbacksample: z.number().min(0).max(1).optional().describe('share of writes read back and checked (default 0.1)'),
    parametersets: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .optional()
      .describe("parameter sets drawn per query before the run, each with the oracle's answer (default 200)"),
  })
  .strict();

export const fileSchema = z
  .object({
    $schema: z.string().optional(),
    name: z
      .string()
      .regex(/^[a-z][a-z0-9-]{0,39}$/, 'expected a name of lower-case letters, digits and -')
      .optional()
      .describe('default: the file name'),
    seed: z.number().int().min(0).optional().describe('seed of the generated data and parameters (default 1)'),
    collections: z
      .record(
        collectionName,
        z
          .object({
            count: z.number().int().min(1).max(10_000_000),
            fields: z.record(
              z.string().regex(FIELD_NAME, 'expected a field name: a letter, then letters, digits or _'),
              generatorSchema,
            ),
            indexes: z
              .array(
                z
                  .array(
                    z
                      .string()
                      .regex(/^-?[A-Za-z_][A-Za-z0-9_.]*$/, 'expected a field path, - before it for descending'),
                  )
                  .min(1),
              )
              .optional(),
          })
          .strict(),
      )
      .refine((c) => Object.keys(c).length > 0, 'expected at least one collection'),
    queries: z
      .record(z.string().regex(OPERATION_NAME, 'expected a name of lower-case letters, digits and -'), querySchema)
      .optional(),
    writes: z
      .record(z.string().regex(OPERATION_NAME, 'expected a name of lower-case letters, digits and -'), writeSchema)
      .optional(),
    mix: z
      .record(z.string(), share)
      .optional()
      .describe('query or write name: proportion (summing to 1); default: every query, equally'),
    run: runSchema.optional(),
  })
  .strict();

export type ScenarioFileSpec = z.output<typeof fileSchema>;
export type QuerySpec = z.output<typeof querySchema>;
export type WriteSpec = z.output<typeof writeSchema>;

/** The JSON Schema of the format (`docbench scenario --schema`). */
export function scenarioJsonSchema(): unknown {
  return { title: 'docbench scenario file', ...z.toJSONSchema(fileSchema, { io: 'input', cycles: 'ref' }) };
}

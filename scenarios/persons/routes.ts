/**
 * The persons scenario (Henricsson 2011) as the route a web developer would write:
 *
 *   GET /persons?q=1..5[&nested=true|false][&variant=…]     200 {query, variant, count, ids, bodies}
 *
 * `q` picks one of the thesis's five queries (scenarios/persons/queries.ts), `nested` the
 * dataset's shape, `variant` the store's way of running it (default: the store's first). The
 * query runs through the scenario's own dialect for the store (scenarios/persons/stores/), the
 * same code `docbench persons` measures; the service only validates, calls and answers.
 *
 * The dataset is seeded beforehand (`docbench seed persons --store X --size N [--nested]
 * [--indexes]`); the service is told what was seeded with `-p persons.size=N`,
 * `-p persons.indexes=true` and `-p persons.seed=…` (the dialects need the size as a bound, and
 * the indexes setting picks their variants; `-p persons.collection=…` names the collections if
 * they were seeded under other names). A variant that needs building first (CouchDB's
 * views, Couchbase's indexes) is built on its first request, once per process.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { canBuildVariant, type PersonsDialect } from './dialect.ts';
import { PERSONS_DIALECTS } from './dialects.ts';
import { DEFAULT_SEED } from './defaults.ts';
import { collectionName, type Shape } from './model.ts';
import { bodyChecksum } from './oracle.ts';
import { queryById, QUERY_IDS, type QueryId } from './queries.ts';
import { PERSONS_DEFAULTS } from './defaults.ts';
import type { Store } from '../../src/stores/store.ts';
import { WorkloadError } from '../../src/workload/properties.ts';
import type { StoreGate } from '../../src/service/store-gate.ts';
import { parseParameters, ValidationError } from '../../src/service/validation.ts';

/** What the service knows about the seeded persons datasets (`-p persons.*`). */
export interface PersonsServiceSettings {
  seed: number;
  size: number;
  indexes: boolean;
  /** Collection / table / database name of the flat dataset (the nested one adds `_nested`); null: the scenario's own names. */
  collection: string | null;
}

const settingsSchema = z
  .object({
    seed: z.coerce.number().int().min(0).default(DEFAULT_SEED),
    size: z.coerce.number().int().min(1).default(PERSONS_DEFAULTS.size),
    indexes: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    collection: z
      .string()
      .regex(
        /^[a-z][a-z0-9_]{0,47}$/,
        'expected a name of lower-case letters, digits and _ (it names a collection, table or database on every store)',
      )
      .nullable()
      .default(null),
  })
  .strict();

/** The collection of a shape: the scenario's own name, or the configured one (`_nested` added for nested). */
export function personsCollection(settings: Pick<PersonsServiceSettings, 'collection'>, shape: Shape): string {
  if (settings.collection === null) return collectionName(shape);
  return shape === 'flat' ? settings.collection : `${settings.collection}_nested`;
}

/** Parse `-p persons.key=value` settings (prefix already removed); a bad one names its key. */
export function parsePersonsSettings(assignments: readonly string[]): PersonsServiceSettings {
  const raw: Record<string, string> = {};
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw new WorkloadError(`-p persons.${a}: expected persons.key=value`);
    raw[a.slice(0, eq).trim()] = a.slice(eq + 1).trim();
  }
  const parsed = settingsSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.code === 'unrecognized_keys' ? issue.keys[0]! : String(issue.path[0] ?? '');
    throw new WorkloadError(
      `-p persons.${key}: ${issue.code === 'unrecognized_keys' ? `unknown setting; expected one of ${Object.keys(settingsSchema.shape).join(', ')}` : issue.message}`,
    );
  }
  return parsed.data;
}

const querySchema = z
  .object({
    q: z
      .string({ error: 'expected one query number' })
      .regex(/^[Qq]?[1-5]$/, `expected 1 … 5 (the thesis's queries ${QUERY_IDS.join(', ')})`),
    nested: z.enum(['true', 'false'], { error: 'expected true or false' }).optional(),
    variant: z.string({ error: 'expected one variant name' }).max(64, 'is too long').optional(),
  })
  .strict();

/** Dialects per store connection (a reconnect brings a new store) and shape; variants built once. */
class Dialects {
  private readonly byStore = new WeakMap<Store, Map<Shape, Promise<PersonsDialect>>>();
  private readonly built = new WeakMap<PersonsDialect, Map<string, Promise<string>>>();

  constructor(
    private readonly settings: PersonsServiceSettings,
    private readonly log: (line: string) => void,
  ) {}

  get(store: Store, shape: Shape): Promise<PersonsDialect> {
    let shapes = this.byStore.get(store);
    if (shapes === undefined) this.byStore.set(store, (shapes = new Map()));
    let dialect = shapes.get(shape);
    if (dialect === undefined) {
      dialect = PERSONS_DIALECTS.create(store, {
        shape,
        indexes: this.settings.indexes,
        size: this.settings.size,
        collection: personsCollection(this.settings, shape),
      });
      // A failed creation is not cached: the next request tries again.
      dialect.catch(() => shapes.delete(shape));
      shapes.set(shape, dialect);
    }
    return dialect;
  }

  /** Build what a variant needs before its first query, once (CouchDB views, Couchbase indexes). */
  async ready(dialect: PersonsDialect, variant: string): Promise<void> {
    const v = dialect.variants.find((x) => x.name === variant)!;
    if (!v.build || !canBuildVariant(dialect)) return;
    let builds = this.built.get(dialect);
    if (builds === undefined) this.built.set(dialect, (builds = new Map()));
    let build = builds.get(variant);
    if (build === undefined) {
      this.log(`persons: building variant ${variant} (once, on its first request)`);
      build = dialect.buildVariant(variant);
      build.catch(() => builds.delete(variant));
      builds.set(variant, build);
    }
    await build;
  }
}

export interface PersonsRouteOptions {
  gate: StoreGate;
  settings: PersonsServiceSettings;
  log: (line: string) => void;
}

export function registerPersonsRoutes(app: FastifyInstance, options: PersonsRouteOptions): void {
  const dialects = new Dialects(options.settings, options.log);

  app.get('/persons', async (request) => {
    const query = parseParameters(querySchema, request.query, 'query');
    const id = `Q${query.q.slice(-1)}` as QueryId;
    const shape: Shape = query.nested === 'true' ? 'nested' : 'flat';
    return options.gate.use(async (store) => {
      const dialect = await dialects.get(store, shape);
      const variant = query.variant ?? dialect.variants[0]!.name;
      if (!dialect.variants.some((v) => v.name === variant)) {
        throw new ValidationError(
          'variant',
          'query',
          `variant: ${store.name} runs the persons queries as ${dialect.variants.map((v) => v.name).join(', ')}`,
        );
      }
      await dialects.ready(dialect, variant);
      const records = await dialect.query(variant, queryById(id));
      // The bodies' checksum lets a client check the documents, not only which ones came back.
      return {
        query: id,
        variant,
        count: records.length,
        ids: records.map((r) => r.id),
        bodies: bodyChecksum(records),
      };
    });
  });
}

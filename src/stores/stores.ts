/**
 * The one list of stores. Every other list (the CLI's choices and defaults, the registries of
 * adapters, local servers and error shapes, the settings prefixes every parser passes through,
 * YCSB's binding names, the test suite's stores, the Docker URLs) is derived from this table;
 * scenario registries are typed by its names.
 *
 * Adding a store: docs/adding-a-store.md. In short, its folder `src/stores/<name>/` (index.ts
 * exporting `createStore`, errors.ts exporting its drivers' error shapes, local-target.ts
 * exporting `localTarget` if docbench can run it on this machine), one row here, and, per
 * scenario it runs, one dialect file `scenarios/<scenario>/stores/<name>.ts` listed in that
 * scenario's `dialects.ts`.
 *
 * Modules are imported lazily so that running one store never loads another's driver (the
 * Couchbase SDK, for one, brings a native core), and drivers are optional peer dependencies of
 * the package: a store's driver is checked (`checkDriver`) before any of its modules loads.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectPath } from '../common/project-root.ts';
import { didYouMean } from '../common/suggest.ts';
import { UserError } from '../common/user-error.ts';
import type { LocalTarget } from '../local/target.ts';
import type { StoreErrors } from '../measure/error-facts.ts';
import type { Store, StoreFactory } from './store.ts';

export interface StoreEntry {
  /** One line for help texts: the product and the official driver. */
  readonly summary: string;
  /**
   * The npm packages its folder imports (the official driver): optional peer dependencies of
   * docbench, which whoever benchmarks this store installs beside it (package.json lists each one
   * with its range; the repository has them all as development dependencies).
   */
  readonly drivers?: readonly string[];
  /** The store's folder: its `createStore` factory. */
  readonly load: () => Promise<{ createStore: StoreFactory<Store> }>;
  /** docbench's local server for it (real or a labelled stand-in), where one runs on this machine. */
  readonly localTarget?: () => Promise<{ localTarget: LocalTarget }>;
  /**
   * Its drivers' error shapes (errors.ts): which errors are the store out of reach or too slow,
   * which are its answer, which are a write conflict. Imported once per process, by
   * store-errors.ts, and importing no driver. Absent for a store that throws no driver's errors.
   */
  readonly errors?: () => Promise<{ errors: StoreErrors }>;
  /** Prefixes of its settings; the first is the canonical one. Default `<name>.`. */
  readonly settingsPrefixes?: readonly string[];
  /** The npm packages of its drivers: what a command that does not use the store must never load. */
  readonly driverPackages?: readonly string[];
  /** YCSB's names for it: its binding classes (after `-db`) and their names in YCSB's `bin/ycsb` script. */
  readonly ycsbBindings?: readonly string[];
  /** The URL it runs on when none is given, for a store that needs no server (BasicDB). */
  readonly fixedUrl?: string;
  /** URL of the real server as docker/compose.yaml publishes it (credentials as set there). */
  readonly dockerUrl?: string;
  /** The compose services that serve it (default: the store's name). */
  readonly dockerServices?: readonly string[];
}

export const STORES = {
  basic: {
    summary: "YCSB's BasicDB: no server, answers at once (try a workload, measure the harness)",
    load: () => import('./basic/index.ts'),
    // YCSB's own property names for BasicDB are accepted too.
    settingsPrefixes: ['basic.', 'basicdb.'],
    ycsbBindings: ['site.ycsb.BasicDB'],
    fixedUrl: 'basic://',
  },
  redis: {
    summary: 'Redis on ioredis (or node-redis)',
    drivers: ['@redis/client', 'ioredis'],
    load: () => import('./redis/index.ts'),
    errors: () => import('./redis/errors.ts'),
    localTarget: () => import('./redis/local-target.ts'),
    driverPackages: ['ioredis', '@redis/client'],
    ycsbBindings: ['site.ycsb.db.RedisClient'],
    dockerUrl: 'redis://127.0.0.1:6379',
  },
  cassandra: {
    summary: 'Apache Cassandra on cassandra-driver',
    drivers: ['cassandra-driver'],
    load: () => import('./cassandra/index.ts'),
    errors: () => import('./cassandra/errors.ts'),
    localTarget: () => import('./cassandra/local-target.ts'),
    driverPackages: ['cassandra-driver'],
    ycsbBindings: ['site.ycsb.db.CassandraCQLClient', 'cassandra-cql'],
    dockerUrl: 'cassandra://127.0.0.1:9042/?datacenter=datacenter1',
  },
  mongodb: {
    summary: 'MongoDB on the mongodb driver',
    drivers: ['mongodb'],
    load: () => import('./mongodb/index.ts'),
    errors: () => import('./mongodb/errors.ts'),
    localTarget: () => import('./mongodb/local-target.ts'),
    driverPackages: ['mongodb'],
    ycsbBindings: ['site.ycsb.db.MongoDbClient', 'site.ycsb.db.AsyncMongoDbClient', 'mongodb-async'],
    dockerUrl: 'mongodb://127.0.0.1:27017/?directConnection=true',
  },
  couchdb: {
    summary: 'Apache CouchDB on nano',
    drivers: ['nano', 'undici'],
    load: () => import('./couchdb/index.ts'),
    errors: () => import('./couchdb/errors.ts'),
    localTarget: () => import('./couchdb/local-target.ts'),
    driverPackages: ['nano'],
    dockerUrl: 'http://admin:password@127.0.0.1:5984',
  },
  couchbase: {
    summary: 'Couchbase Server on the couchbase SDK',
    drivers: ['couchbase'],
    load: () => import('./couchbase/index.ts'),
    errors: () => import('./couchbase/errors.ts'),
    localTarget: () => import('./couchbase/local-target.ts'),
    driverPackages: ['couchbase'],
    ycsbBindings: [
      'site.ycsb.db.couchbase2.Couchbase2Client',
      'site.ycsb.db.couchbase3.Couchbase3Client',
      'couchbase2',
      'couchbase3',
    ],
    dockerUrl: 'couchbase://Administrator:password@127.0.0.1/docbench',
    // The cluster, bucket and user are made by a one-shot init container.
    dockerServices: ['couchbase', 'couchbase-init'],
  },
  hbase: {
    summary:
      'Apache HBase through its REST gateway, on a small REST client of docbench (HBase has no official Node.js driver)',
    load: () => import('./hbase/index.ts'),
    errors: () => import('./hbase/errors.ts'),
    localTarget: () => import('./hbase/local-target.ts'),
    ycsbBindings: ['site.ycsb.db.hbase2.HBaseClient2', 'site.ycsb.db.hbase1.HBaseClient1', 'hbase2', 'hbase1'],
  },
  postgres: {
    summary: "PostgreSQL's JSONB as a document store, on node-postgres (pg)",
    drivers: ['pg'],
    load: () => import('./postgres/index.ts'),
    errors: () => import('./postgres/errors.ts'),
    localTarget: () => import('./postgres/local-target.ts'),
    driverPackages: ['pg'],
    // YCSB's JSONB binding (postgrenosql) and its JDBC binding's name for PostgreSQL.
    ycsbBindings: ['site.ycsb.postgrenosql.PostgreNoSQLDBClient', 'postgrenosql'],
    dockerUrl: 'postgres://postgres:password@127.0.0.1:5432/docbench',
  },
  ferretdb: {
    summary: "FerretDB (MongoDB-compatible, on PostgreSQL) on the mongodb driver and the MongoDB store's code",
    // Its local target makes FerretDB's database on the local PostgreSQL with pg.
    drivers: ['mongodb', 'pg'],
    load: () => import('./ferretdb/index.ts'),
    // Its driver is mongodb's, and FerretDB answers MongoDB's error codes: the MongoDB store's shapes apply.
    errors: () => import('./mongodb/errors.ts'),
    localTarget: () => import('./ferretdb/local-target.ts'),
    // No compose service yet: FerretDB's image (ghcr.io/ferretdb/ferretdb) needs a PostgreSQL service beside it.
  },
} as const satisfies Record<string, StoreEntry>;

export type StoreName = keyof typeof STORES;

/** The store object a name's factory makes (e.g. `StoreOf<'redis'>` is the Redis adapter). */
export type StoreOf<K extends StoreName> = ReturnType<Awaited<ReturnType<(typeof STORES)[K]['load']>>['createStore']>;

/** The scenario-facing handle of a store, which its scenario dialects are written against. */
export type HandleOf<K extends StoreName> = StoreOf<K>['handle'];

const entry = (name: StoreName): StoreEntry => STORES[name];

/** Every store, in the table's order. */
export const STORE_NAMES = Object.keys(STORES) as StoreName[];

/** Stores docbench can run locally, in the order `docbench up` starts them: the default of `compare` and of the test suite. */
export const LOCAL_STORE_NAMES = STORE_NAMES.filter((name) => entry(name).localTarget !== undefined);

/** Every prefix of a store setting (`redis.`, `basicdb.`, …), for the workload parser to pass through. */
export const SETTINGS_PREFIXES = STORE_NAMES.flatMap((name) => settingsPrefixes(name));

export function isStoreName(name: string): name is StoreName {
  return Object.hasOwn(STORES, name);
}

export function settingsPrefixes(name: StoreName): readonly string[] {
  return entry(name).settingsPrefixes ?? [`${name}.`];
}

/** The settings of one store out of a mixed map (`-p` properties hold every store's). */
export function settingsOf(name: StoreName, all: Readonly<Record<string, string>>): Record<string, string> {
  const prefixes = settingsPrefixes(name);
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(all)) if (prefixes.some((p) => key.startsWith(p))) out[key] = value;
  return out;
}

/** Every store's YCSB binding names, each with its store. */
export const YCSB_BINDING_STORES: ReadonlyMap<string, StoreName> = new Map(
  STORE_NAMES.flatMap((name) => (entry(name).ycsbBindings ?? []).map((binding) => [binding, name] as const)),
);

/** Every store's driver packages (`ioredis`, `cassandra-driver`, …). */
export const DRIVER_PACKAGES: readonly string[] = STORE_NAMES.flatMap((name) => entry(name).driverPackages ?? []);

/** The URL of a store that needs no server (`basic://`), used when none is given. */
export function fixedUrl(name: StoreName): string | undefined {
  return entry(name).fixedUrl;
}

export function dockerUrl(name: StoreName): string | undefined {
  return entry(name).dockerUrl;
}

export function dockerServices(name: StoreName): readonly string[] {
  return entry(name).dockerServices ?? [name];
}

export class UnknownStoreError extends UserError {
  constructor(name: string, where = 'store') {
    super(
      `${where}: unknown store "${name}"${didYouMean(name, STORE_NAMES)}; expected one of ${STORE_NAMES.join(', ')}`,
    );
  }
}

/** A store name given by the user, checked. */
export function storeName(name: string, where?: string): StoreName {
  if (!isStoreName(name)) throw new UnknownStoreError(name, where);
  return name;
}

/** A store whose driver is not installed beside docbench: what to install, in one line. */
export class DriverMissingError extends UserError {
  constructor(
    readonly store: StoreName,
    readonly packages: readonly string[],
  ) {
    super(`store ${store}: its driver is not installed (${packages.join(', ')}): ${installCommand(packages)}`);
  }

  /** The command that installs them, at the versions docbench is tested with. */
  get install(): string {
    return installCommand(this.packages);
  }
}

function installCommand(packages: readonly string[]): string {
  let peers: Record<string, string> = {};
  try {
    peers =
      (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { peerDependencies?: typeof peers })
        .peerDependencies ?? {};
  } catch {
    // Without its ranges the command still names the packages.
  }
  return `npm install --save-dev ${packages.map((p) => (peers[p] ? `${p}@${peers[p]}` : p)).join(' ')}`;
}

/**
 * Whether a package is where Node looks for it from docbench's own modules: a node_modules
 * folder here or above (the user's application, where an installed docbench's peers are).
 * Looked up on disk rather than resolved, so that checking loads and resolves nothing.
 */
function installed(pkg: string): boolean {
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules', pkg, 'package.json'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * Throws DriverMissingError when a store's driver is not installed: called before anything of
 * the store is imported (its adapter, its local server), so the user reads which package to
 * install, not a module resolution error, and before a local server is built and started.
 */
export function checkDriver(name: StoreName): void {
  const missing = (entry(name).drivers ?? []).filter((pkg) => !installed(pkg));
  if (missing.length > 0) throw new DriverMissingError(name, missing);
}

/** The factory of a store's adapter (its folder is imported now, not before). */
export async function storeFactory(name: string): Promise<StoreFactory<Store>> {
  const store = storeName(name);
  checkDriver(store);
  return (await entry(store).load()).createStore;
}

/**
 * What the server says about itself: product and version from GET /, record count and size on
 * disk from the database info, the Erlang VM's memory from the node API (server admins only).
 */
import { packageVersion } from '../../version.ts';
import type { StoreStats } from '../store.ts';
import { couchCompatibleProduct } from './compatible.ts';
import { statusOf } from './connection.ts';
import type { CouchdbHandle } from './handle.ts';

/** GET / of CouchDB (and of servers speaking its API). */
interface Welcome {
  couchdb?: string;
  'express-pouchdb'?: string;
  version?: string;
  git_sha?: string;
  features?: string[];
  vendor?: { name?: string; version?: string; variant?: string };
}

/** GET /{db}: CouchDB 3 reports `sizes`; before 3.0 it was `disk_size`. */
interface DatabaseInfo {
  doc_count?: number;
  disk_size?: number;
  sizes?: { file?: number; active?: number; external?: number };
}

/**
 * Stats of the server and of the database the run used: the newest one that exists of those
 * the YCSB operations and the scenarios worked in (`ecommerce`, `persons`, `usertable`, …), so a
 * result names the database it measured, with its record count and size.
 */
export async function couchdbStats(handle: CouchdbHandle, maxSockets: number): Promise<StoreStats> {
  const root = (await handle.server.relax({ path: '' })) as Welcome;
  const version = root.version ?? 'unknown';
  const vendor = root.vendor?.name;
  // pouchdb-server answers with express-pouchdb's welcome; the result must say it is not CouchDB.
  const isPouchdbServer = root['express-pouchdb'] !== undefined && root.couchdb === undefined;
  let server: string;
  if (isPouchdbServer) server = 'PouchDB Server (express-pouchdb)';
  else if (root.couchdb !== undefined)
    server = !vendor || vendor === 'The Apache Software Foundation' ? 'Apache CouchDB' : `CouchDB (${vendor})`;
  else server = vendor ?? 'unknown CouchDB-compatible server';

  const extra: NonNullable<StoreStats['extra']> = {
    'couchdb.maxsockets': maxSockets,
    ...(vendor ? { vendor } : {}),
    ...(root.git_sha ? { gitSha: root.git_sha } : {}),
    ...(root.features ? { features: root.features.join(',') } : {}),
  };
  const stats: StoreStats = { server, serverVersion: version, driver: `nano ${packageVersion('nano')}`, extra };
  // Another product on CouchDB's API (Cloudant, Sync Gateway, …) is named as itself.
  const compatible = isPouchdbServer ? undefined : couchCompatibleProduct(root, hostOf(handle));
  if (compatible) {
    stats.compatible = compatible;
    stats.server = compatible.product;
    if (compatible.version !== 'unknown') stats.serverVersion = compatible.version;
    extra.reportedCouchdbVersion = version;
  }
  if (isPouchdbServer) {
    stats.standIn = {
      name: 'pouchdb-server',
      version,
      note: 'the CouchDB HTTP API on PouchDB/LevelDB, not Apache CouchDB',
    };
  }

  const used = await usedDatabase(handle);
  if (used) {
    const { database, info } = used;
    extra['couchdb.database'] = database;
    // doc_count counts design documents (a scenario's indexes and views) too: records are the rest.
    if (typeof info.doc_count === 'number') {
      const designs = await designDocumentCount(handle, database);
      stats.recordCount = Math.max(0, info.doc_count - designs);
      if (designs > 0) extra['couchdb.designDocuments'] = designs;
    }
    if (typeof info.sizes?.file === 'number') {
      stats.diskBytes = info.sizes.file;
      extra.diskBytesFrom = 'sizes.file';
    } else if (typeof info.disk_size === 'number') {
      stats.diskBytes = info.disk_size;
      extra.diskBytesFrom = 'disk_size';
    }
    if (typeof info.sizes?.active === 'number') extra['sizes.active'] = info.sizes.active;
    if (typeof info.sizes?.external === 'number') extra['sizes.external'] = info.sizes.external;
  }
  const memory = await nodeMemory(handle);
  if (memory !== undefined) stats.memoryBytes = memory;
  return stats;
}

/** The newest database used that exists, with its info; null when none does (nothing used yet). */
async function usedDatabase(handle: CouchdbHandle): Promise<{ database: string; info: DatabaseInfo } | null> {
  for (const database of handle.databasesUsed()) {
    const info = await databaseInfo(handle, database);
    if (info) return { database, info };
  }
  return null;
}

async function databaseInfo(handle: CouchdbHandle, database: string): Promise<DatabaseInfo | null> {
  try {
    return (await handle.server.use(database).info()) as DatabaseInfo;
  } catch (error) {
    if (statusOf(error) === 404) return null; // not prepared yet
    throw error;
  }
}

/** Design documents in a database: `_all_docs` over the `_design/` id range (ids only). */
async function designDocumentCount(handle: CouchdbHandle, database: string): Promise<number> {
  const designs = await handle.server.use(database).list({ startkey: '_design/', endkey: '_design0' });
  return designs.rows.length;
}

/**
 * Memory of the Erlang VM from /_node/_local/_system: erlang:memory's total, which CouchDB
 * reports split into processes + atom + binary + code + ets + other.
 */
async function nodeMemory(handle: CouchdbHandle): Promise<number | undefined> {
  try {
    const system = (await handle.server.relax({ path: '_node/_local/_system' })) as { memory?: Record<string, number> };
    const m = system.memory;
    if (!m) return undefined;
    const parts = [m.processes, m.atom, m.binary, m.code, m.ets, m.other];
    return parts.every((v) => typeof v === 'number') ? parts.reduce((a, b) => a! + b!, 0) : undefined;
  } catch {
    return undefined; // not an admin, or a server without the node API
  }
}

/** The server's host name, for markers a service's host carries (Cloudant's). */
function hostOf(handle: CouchdbHandle): string {
  try {
    return new URL(handle.server.config.url).hostname;
  } catch {
    return '';
  }
}

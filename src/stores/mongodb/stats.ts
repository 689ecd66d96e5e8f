/**
 * What the store says about its server: product and version (buildInfo), the driver, the
 * settings in force, sizes (dbStats, and the YCSB collection's own where there is one) and the
 * server's resident memory (serverStatus). A figure the server refuses (no privilege, no such
 * command) is left out, never guessed.
 */
import type { Document, MongoClientOptions } from 'mongodb';
import { packageVersion } from '../../version.ts';
import type { StoreStats } from '../store.ts';
import { mongoCompatibleProduct } from './compatible.ts';
import { num, type MongodbHandle } from './handle.ts';

/**
 * `clientOptions` are those the settings gave (what a user chose, not the driver's defaults);
 * `collection` is the YCSB table last used, if any.
 */
export async function mongodbStats(
  handle: MongodbHandle,
  clientOptions: MongoClientOptions,
  collection: string | undefined,
): Promise<StoreStats> {
  const build = await command(handle, { buildInfo: 1 }, true);
  const secantusVersion = typeof build?.secantusVersion === 'string' ? build.secantusVersion : undefined;
  const modules = Array.isArray(build?.modules) ? (build.modules as unknown[]).map(String) : [];
  let server = modules.includes('enterprise') ? 'MongoDB Enterprise' : 'MongoDB';
  if (secantusVersion !== undefined) server = `SecantusDB ${secantusVersion} (MongoDB wire protocol)`;
  const hello = await command(handle, { hello: 1 });
  // Another product on MongoDB's protocol (FerretDB, DocumentDB, Cosmos DB) is named as itself.
  const compatible = mongoCompatibleProduct({
    ...(build ? { buildInfo: build } : {}),
    ...(hello ? { hello } : {}),
    host: handle.client.options.srvHost ?? handle.client.options.hosts[0]?.host,
  });
  if (compatible) server = compatible.product;

  const wc = clientOptions.writeConcern;
  const extra: NonNullable<StoreStats['extra']> = {
    database: handle.db.databaseName,
    ...(collection !== undefined ? { collection } : {}),
    ...(wc?.w !== undefined ? { 'mongodb.writeConcern': String(wc.w) } : {}),
    ...(wc?.journal !== undefined ? { 'mongodb.journal': wc.journal } : {}),
    ...(clientOptions.readPreference !== undefined
      ? { 'mongodb.readPreference': String(clientOptions.readPreference) }
      : {}),
    'mongodb.maxPoolSize': handle.client.options.maxPoolSize,
    ...(Array.isArray(build?.storageEngines) ? { storageEngines: (build.storageEngines as unknown[]).join(',') } : {}),
    ...(modules.length > 0 ? { modules: modules.join(',') } : {}),
  };
  const reportedVersion = typeof build?.version === 'string' ? build.version : 'unknown';
  const stats: StoreStats = {
    server,
    // A compatible product's own version (as a number, like every serverVersion: FerretDB's
    // "v1.24.2" is 1.24.2); the MongoDB version it reports stays in extra.
    serverVersion:
      compatible && compatible.version !== 'unknown' ? compatible.version.replace(/^v(?=\d)/, '') : reportedVersion,
    driver: `mongodb ${packageVersion('mongodb')}`,
    extra,
  };
  if (compatible) {
    stats.compatible = compatible;
    extra.reportedMongoVersion = reportedVersion;
  }
  if (secantusVersion !== undefined) {
    // The server says it is SecantusDB (a field no mongod reply has): label the result, as the
    // numbers are SecantusDB's and say nothing about MongoDB's own engine.
    stats.standIn = {
      name: 'SecantusDB',
      version: secantusVersion,
      note: `a MongoDB-wire-protocol server on WiredTiger reporting MongoDB ${stats.serverVersion}, not MongoDB`,
    };
  }

  // Database totals. storageSize is the bytes WiredTiger's data files take on disk (compressed),
  // indexSize the same for indexes: together what the database costs on disk.
  const db = await command(handle, { dbStats: 1 });
  const dbStorage = num(db?.storageSize);
  const dbIndex = num(db?.indexSize);
  const dbData = num(db?.dataSize);
  const dbObjects = num(db?.objects);
  if (dbData !== undefined) extra['db.dataSize'] = dbData;
  if (dbStorage !== undefined) extra['db.storageSize'] = dbStorage;
  if (dbIndex !== undefined) extra['db.indexSize'] = dbIndex;
  if (dbObjects !== undefined) {
    extra['db.objects'] = dbObjects;
    stats.recordCount = dbObjects;
  }
  if (dbStorage !== undefined && dbIndex !== undefined) {
    stats.diskBytes = dbStorage + dbIndex;
    extra.diskBytesFrom = 'dbStats storageSize + indexSize';
  }

  // The YCSB collection itself, when there is one: its figures replace the database's.
  const coll = collection === undefined ? undefined : await handle.collectionSizes(collection).catch(() => undefined);
  if (coll) {
    if (coll.size !== undefined) extra['collection.dataSize'] = coll.size;
    if (coll.storageSize !== undefined) extra['collection.storageSize'] = coll.storageSize;
    if (coll.totalIndexSize !== undefined) extra['collection.indexSize'] = coll.totalIndexSize;
    if (coll.count !== undefined) {
      extra['collection.count'] = coll.count;
      stats.recordCount = coll.count;
    }
    if (coll.storageSize !== undefined && coll.totalIndexSize !== undefined) {
      stats.diskBytes = coll.storageSize + coll.totalIndexSize;
      extra.diskBytesFrom = 'collStats storageSize + totalIndexSize';
    }
  }

  // The consistency every operation ran with: the database object's, which has the URL's and
  // the settings' (a default is named as the server's, since the server decides it then).
  const writeConcern = handle.db.writeConcern;
  const w =
    writeConcern?.w !== undefined
      ? `w=${String(writeConcern.w)}`
      : "the server's default write concern (w=1 unless the deployment sets another)";
  const j = writeConcern?.journal !== undefined ? `, j=${writeConcern.journal}` : '';
  const wtimeout = writeConcern?.wtimeoutMS !== undefined ? `, wtimeout=${writeConcern.wtimeoutMS} ms` : '';
  stats.consistency = {
    reads: `read preference ${handle.db.readPreference.mode}`,
    writes: `write concern ${w}${j}${wtimeout}`,
  };
  stats.encrypted = handle.client.options.tls === true;
  if (typeof hello?.setName === 'string') {
    const members = [hello.hosts, hello.passives, hello.arbiters].reduce(
      (n: number, list) => n + (Array.isArray(list) ? list.length : 0),
      0,
    );
    stats.topology = { kind: 'replica-set', nodes: members };
    extra.replicaSet = hello.setName;
  } else if (hello?.msg === 'isdbgrid') {
    stats.topology = { kind: 'sharded (mongos)', nodes: 1 };
  } else if (hello) {
    stats.topology = { kind: 'single', nodes: 1 };
  }

  // Resident memory of the server process (MiB in serverStatus); needs the clusterMonitor role.
  const status = await command(handle, { serverStatus: 1, repl: 0, metrics: 0, locks: 0 }, true);
  const resident = num((status?.mem as Document | undefined)?.resident);
  if (resident !== undefined && resident > 0) stats.memoryBytes = resident * 1024 * 1024;
  const engine = (status?.storageEngine as Document | undefined)?.name;
  if (typeof engine === 'string') extra.storageEngine = engine;
  return stats;
}

/** Run a command on the store's database (or admin); undefined when the server refuses it. */
async function command(handle: MongodbHandle, command: Document, admin = false): Promise<Document | undefined> {
  try {
    return await (admin ? handle.db.admin() : handle.db).command(command);
  } catch {
    return undefined; // not supported, or the user lacks the privilege: leave the figure out
  }
}

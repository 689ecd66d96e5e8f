/**
 * Opening and closing the driver's client. Creating it only parses (the driver checks the URL
 * and its options, and what it refuses is a MongoUrlError); `connect` selects a server and asks
 * the database for its collections, and whatever stops it is an AccessDeniedError (the login or
 * the rights) or an UnreachableError saying what to check.
 */
import { MongoClient, MongoServerError, MongoServerSelectionError, type MongoClientOptions } from 'mongodb';
import { AccessDeniedError, UnreachableError } from '../store.ts';
import { PROBE_TIMEOUT_MS, speaksTls, untrustedCertificate } from '../tls-probe.ts';
import { MongodbHandle } from './handle.ts';
import type { MongodbConfig } from './settings.ts';
import { maskPassword, MongoUrlError } from './url.ts';

/** MongoDB's error codes of a refused login and of a missing right. */
const AUTHENTICATION_FAILED = 18;
const UNAUTHORIZED = 13;

/** The client on the store's database; nothing is connected yet. */
export function createHandle(config: MongodbConfig): MongodbHandle {
  let client: MongoClient;
  try {
    client = new MongoClient(config.target.url, config.clientOptions);
  } catch (error) {
    // The constructor does no I/O: what the driver throws here is about the URL or its options.
    if (error instanceof Error && error.name.startsWith('Mongo'))
      throw MongoUrlError.refusedByDriver(config.target.url, error.message);
    throw error;
  }
  return new MongodbHandle(client, client.db(config.target.database));
}

/**
 * Connect and prove the run can work: `ping` answers anyone (even without a login on a server
 * that requires one), so the check is `listCollections` on the store's database, which needs the
 * login to be accepted and the user to hold rights on that database (as YCSB's reads need).
 */
export async function connect(handle: MongodbHandle, config: MongodbConfig): Promise<void> {
  const displayUrl = config.target.displayUrl;
  try {
    await handle.client.connect();
    await handle.db.listCollections({ name: CONNECT_PROBE }, { nameOnly: true }).toArray();
  } catch (error) {
    await handle.client.close().catch(() => {});
    const refused = refusedLogin(error, handle.db.databaseName, handle.client.options.credentials !== undefined);
    if (refused) throw new AccessDeniedError('mongodb', displayUrl, refused);
    throw new UnreachableError('mongodb', displayUrl, await reason(error, handle.client.options));
  }
}

/** A collection name no one uses: listCollections filtered to it answers at once, whatever the database holds. */
const CONNECT_PROBE = 'docbench.connect-probe';

/** Close the client; safe to call twice. */
export async function close(handle: MongodbHandle): Promise<void> {
  await handle.client.close();
}

/** A refused login or a missing right, in words that say what to fix in the URL; else undefined. */
function refusedLogin(error: unknown, database: string, hasLogin: boolean): string | undefined {
  if (!(error instanceof MongoServerError)) return undefined;
  const driverSays = maskPassword(error.message);
  if (error.code === AUTHENTICATION_FAILED) {
    return `the server refused the user name or password in the URL (${driverSays}); check them, and give authSource=<database> if the user is not defined in admin`;
  }
  if (error.code === UNAUTHORIZED) {
    // The server's text goes on with the whole command document; its first words say enough.
    const what = `${error.codeName ?? 'Unauthorized'}: ${driverSays.replace(/ to execute command .*$/s, '')}`;
    if (!hasLogin) return `the server requires a login (${what}); give one as mongodb://USER:PASSWORD@host/${database}`;
    return `the URL's user may not work in the database "${database}" (${what}); give a user with read and write rights on it as mongodb://USER:PASSWORD@host/${database}`;
  }
  return undefined;
}

/** Why the server could not be used, with what to check (the driver's words with any password masked). */
async function reason(error: unknown, options: MongoClientOptions): Promise<string> {
  const driverSays = maskPassword(error instanceof Error ? error.message : String(error));
  const certificate = untrustedCertificate(error);
  if (certificate) return certificate;
  if (error instanceof MongoServerSelectionError) {
    const mismatch = await tlsMismatch(error, options.tls === true);
    if (mismatch) return `${mismatch} (${driverSays})`;
    return `no server answered within the server selection timeout of ${options.serverSelectionTimeoutMS} ms (${driverSays}); check that the server runs and the URL's hosts and ports, or raise mongodb.serverSelectionTimeoutMS`;
  }
  return driverSays;
}

/**
 * A TLS client at a plain server gets its connection closed or no handshake; a plain client at a
 * TLS server is dropped. When selection failed and a server of the URL completes a TLS handshake
 * while the URL asks for none (or the reverse: it answers MongoDB's hello in plain while the URL
 * asks for TLS), that is the cause.
 */
async function tlsMismatch(error: MongoServerSelectionError, tls: boolean): Promise<string | undefined> {
  const hosts = [...(error.reason?.servers.keys() ?? [])];
  for (const address of hosts.slice(0, 3)) {
    const colon = address.lastIndexOf(':');
    const [host, port] = [address.slice(0, colon), Number(address.slice(colon + 1))];
    if (!tls && (await speaksTls(host, port))) return `TLS mismatch: ${address} speaks TLS; add tls=true to the URL`;
    if (tls && (await answersPlainHello(host, port)))
      return `TLS mismatch: ${address} speaks MongoDB without TLS; remove tls=true (or ssl=true) from the URL`;
  }
  return undefined;
}

/** The driver's own hello, in plain: a MongoDB server answers it. */
async function answersPlainHello(host: string, port: number): Promise<boolean> {
  const probe = new MongoClient(`mongodb://${host.includes(':') ? `[${host}]` : host}:${port}/?directConnection=true`, {
    tls: false,
    serverSelectionTimeoutMS: PROBE_TIMEOUT_MS,
    connectTimeoutMS: PROBE_TIMEOUT_MS,
    maxPoolSize: 1,
  });
  try {
    await probe.db('admin').command({ hello: 1 });
    return true;
  } catch {
    return false;
  } finally {
    await probe.close().catch(() => {});
  }
}

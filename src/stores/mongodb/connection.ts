/**
 * Opening and closing the driver's client. Creating it only parses (the driver checks the URL
 * and its options, and what it refuses is a MongoUrlError); `connect` selects a server and pings
 * the database, and whatever stops it is an UnreachableError saying what to check.
 */
import { MongoClient, MongoServerError, MongoServerSelectionError } from 'mongodb';
import { UnreachableError } from '../store.ts';
import { MongodbHandle } from './handle.ts';
import type { MongodbConfig } from './settings.ts';
import { maskPassword, MongoUrlError } from './url.ts';

const AUTHENTICATION_FAILED = 18;

/** The client on the store's database; nothing is connected yet. */
export function createHandle(config: MongodbConfig): MongodbHandle {
  let client: MongoClient;
  try {
    client = new MongoClient(config.target.url, config.clientOptions);
  } catch (error) {
    // The constructor does no I/O: what the driver throws here is about the URL or its options.
    if (error instanceof Error && error.name.startsWith('Mongo')) throw MongoUrlError.refusedByDriver(config.target.url, error.message);
    throw error;
  }
  return new MongodbHandle(client, client.db(config.target.database));
}

export async function connect(handle: MongodbHandle, displayUrl: string): Promise<void> {
  try {
    await handle.client.connect();
    await handle.db.command({ ping: 1 });
  } catch (error) {
    await handle.client.close().catch(() => {});
    throw new UnreachableError('mongodb', displayUrl, reason(error, handle.client.options.serverSelectionTimeoutMS));
  }
}

/** Close the client; safe to call twice. */
export async function close(handle: MongodbHandle): Promise<void> {
  await handle.client.close();
}

/** Why the server could not be used, with what to check (the driver's words with any password masked). */
function reason(error: unknown, selectionTimeoutMs: number): string {
  const driverSays = maskPassword(error instanceof Error ? error.message : String(error));
  if (error instanceof MongoServerError && error.code === AUTHENTICATION_FAILED) {
    return `the server rejected the credentials in the URL (${driverSays}); give them as mongodb://USER:PASSWORD@host/…, with authSource if the user is not defined in admin`;
  }
  if (error instanceof MongoServerSelectionError) {
    return `no server answered within the server selection timeout of ${selectionTimeoutMs} ms (${driverSays}); check that the server runs and the URL's hosts and ports, or raise mongodb.serverSelectionTimeoutMS`;
  }
  return driverSays;
}

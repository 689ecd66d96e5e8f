/**
 * Opening and closing the SDK's objects (cluster, bucket, the configured collection), the
 * management REST API reached with the URL's login, and what the SDK's errors mean: a failed
 * connect becomes an UnreachableError with a reason a user can act on.
 */
import {
  AuthenticationFailureError,
  BucketNotFoundError,
  CollectionNotFoundError,
  connect,
  DocumentNotFoundError,
  FeatureNotAvailableError,
  ScopeNotFoundError,
  ServiceNotAvailableError,
  TimeoutError,
  type Bucket,
  type Cluster,
  type Collection,
} from 'couchbase';
import { UnreachableError } from '../store.ts';
import type { CouchbaseConfig } from './settings.ts';

/** Key read by open() to prove the bucket and collection answer (normally absent). */
const CONNECT_PROBE_KEY = 'docbench::connect-probe';
/** Beyond the SDK's own bootstrap timeout: only a bootstrap that never settles reaches it. */
const BOOTSTRAP_GRACE_MS = 5000;

export class CouchbaseConnection {
  private closing: Promise<void> | null = null;

  private constructor(
    readonly cluster: Cluster,
    readonly bucket: Bucket,
    /** The configured collection, where every YCSB table lives. */
    readonly collection: Collection,
  ) {}

  /** Bootstrap the cluster and prove the bucket and collection answer; throws UnreachableError. */
  static async open(config: CouchbaseConfig): Promise<CouchbaseConnection> {
    const ms = config.connectTimeoutMs;
    let cluster: Cluster;
    try {
      cluster = await withDeadline(
        connect(config.url.connectionString, {
          username: config.url.username,
          password: config.url.password,
          timeouts: {
            kvTimeout: config.kvTimeoutMs,
            queryTimeout: config.queryTimeoutMs,
            connectTimeout: ms,
            bootstrapTimeout: ms,
            managementTimeout: ms,
          },
        }),
        ms + BOOTSTRAP_GRACE_MS,
        'bootstrap',
        (late) => void late.close().catch(() => {}),
      );
    } catch (error) {
      throw new UnreachableError('couchbase', config.url.displayUrl, describeConnectError(config, error, 'bootstrap'));
    }
    const bucket = cluster.bucket(config.url.bucket);
    const collection = bucket.scope(config.scope).collection(config.collection);
    try {
      // A KV read proves the bucket opens and the collection exists, with the same path every
      // operation takes (the SDK opens buckets lazily, so connect() alone proves neither).
      await collection.get(CONNECT_PROBE_KEY, { timeout: ms });
    } catch (error) {
      if (!(error instanceof DocumentNotFoundError)) {
        await cluster.close().catch(() => {});
        throw new UnreachableError('couchbase', config.url.displayUrl, describeConnectError(config, error, 'bucket'));
      }
    }
    return new CouchbaseConnection(cluster, bucket, collection);
  }

  /** Close the cluster; safe to call twice. */
  close(): Promise<void> {
    this.closing ??= this.cluster.close();
    return this.closing;
  }
}

/** GET on the management REST API with the URL's credentials (Couchbase's HTTP Basic auth). */
export async function managementRest(config: CouchbaseConfig, path: string): Promise<unknown> {
  const auth = Buffer.from(`${config.url.username}:${config.url.password}`).toString('base64');
  const response = await fetch(`${config.managementUrl}${path}`, {
    headers: { authorization: `Basic ${auth}` },
    signal: AbortSignal.timeout(config.connectTimeoutMs),
  });
  if (!response.ok) throw new Error(`GET ${config.managementUrl}${path} answered HTTP ${response.status}`);
  return response.json();
}

/** An error's message with its cause's, for notes and messages. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** The query service is not there at all (a KV-only cluster or node set). */
export function isNoQueryService(error: unknown): boolean {
  return error instanceof ServiceNotAvailableError || error instanceof FeatureNotAvailableError;
}

/** Why open() failed, in words a user can act on; `stage` says how far it got. */
function describeConnectError(config: CouchbaseConfig, error: unknown, stage: 'bootstrap' | 'bucket'): string {
  const reason = reasonOf(error);
  const bucket = config.url.bucket;
  const where = `bucket "${bucket}", collection ${config.scope}.${config.collection}`;
  if (error instanceof AuthenticationFailureError) {
    return `the server rejected the user name or password in the URL, or the user may not access bucket "${bucket}" (${reason})`;
  }
  if (error instanceof BucketNotFoundError || /bucket_not_found/.test(reason)) return `bucket "${bucket}" does not exist or the user may not access it (${reason})`;
  if (error instanceof ScopeNotFoundError || error instanceof CollectionNotFoundError) return `${where}: the scope or collection does not exist (${reason})`;
  if (error instanceof TimeoutError || /did not finish within/.test(reason)) {
    const ms = config.connectTimeoutMs;
    return stage === 'bootstrap'
      ? `no Couchbase cluster answered within ${ms} ms (couchbase.connectTimeout) (${reason})`
      : `the cluster answered, but ${where} did not within ${ms} ms: it may not exist, or the user may not access it (${reason})`;
  }
  return stage === 'bootstrap' ? reason : `${where}: ${reason}`;
}

/** Resolve `promise`, or reject after `ms`; a late success is handed to `cleanup` so nothing stays open. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string, cleanup: (late: T) => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      done = true;
      reject(new Error(`${what} did not finish within ${ms} ms`));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (done) cleanup(value);
        else resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (!done) reject(error);
      },
    );
  });
}

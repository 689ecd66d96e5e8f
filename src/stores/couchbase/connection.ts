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
import { errorFromCpp } from 'couchbase/dist/bindingutilities.js';
import { AccessDeniedError, MissingDataError, UnreachableError } from '../store.ts';
import { plainAnswer, refusesConnections, speaksTls, untrustedCertificate } from '../tls-probe.ts';
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

  /**
   * Bootstrap the cluster (which logs in) and prove the bucket and collection answer. Throws
   * AccessDeniedError (the login refused), MissingDataError (no such bucket, scope or collection)
   * or UnreachableError.
   */
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
      throw await connectError(config, error, 'bootstrap');
    }
    try {
      await withDeadline(openBucket(cluster, config.url.bucket), ms, 'opening the bucket', () => {});
    } catch (error) {
      await cluster.close().catch(() => {});
      throw await connectError(config, error, 'bucket');
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
        throw await connectError(config, error, 'bucket');
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
  const cause =
    error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
  return `${error.message}${cause}`;
}

/** The query service is not there at all (a KV-only cluster or node set). */
export function isNoQueryService(error: unknown): boolean {
  return error instanceof ServiceNotAvailableError || error instanceof FeatureNotAvailableError;
}

/**
 * Driver workaround (couchbase 4.x, its JSCBC-1011): Cluster.bucket() opens the bucket in the
 * background, and when that fails it only prints "failed to open bucket: …" with console.error
 * (a second line under docbench's own) while the caller's next operation times out, the cause
 * unknown. So the bucket is opened here first, through the same call Cluster.bucket() makes, and
 * its error (no such bucket, no access) is the SDK's error class; Cluster.bucket() then finds the
 * bucket open and opens nothing.
 */
function openBucket(cluster: Cluster, name: string): Promise<void> {
  const internal = cluster as unknown as {
    _conn: { openBucket(name: string, callback: (error: unknown) => void): void };
    _openBuckets: string[];
  };
  if (internal._openBuckets.includes(name)) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    internal._conn.openBucket(name, (error) => {
      if (error) return reject(errorFromCpp(error as never) ?? error);
      internal._openBuckets.push(name);
      resolve();
    });
  });
}

/** Why open() failed, as the error a user can act on; `stage` says how far it got. */
async function connectError(config: CouchbaseConfig, error: unknown, stage: 'bootstrap' | 'bucket'): Promise<Error> {
  const display = config.url.displayUrl;
  const reason = reasonOf(error);
  const bucket = config.url.bucket;
  if (error instanceof AuthenticationFailureError) {
    return new AccessDeniedError(
      'couchbase',
      display,
      `the server refused the user name or password in the URL, or the user may not access bucket "${bucket}" (${reason}); check them, and the user's roles on the bucket`,
    );
  }
  if (error instanceof BucketNotFoundError || /bucket_not_found/.test(reason)) {
    return new MissingDataError(
      'couchbase',
      display,
      `the bucket "${bucket}"`,
      `the server says ${reason}, as it does to a user without access to it; create it (Couchbase's console, or couchbase-cli bucket-create) or name an existing one as the URL's path (docbench load creates no bucket)`,
    );
  }
  if (error instanceof ScopeNotFoundError || error instanceof CollectionNotFoundError) {
    return new MissingDataError(
      'couchbase',
      display,
      `the collection ${config.scope}.${config.collection} in bucket "${bucket}"`,
      `the server says ${reason}; create it first (docbench load creates no collection), or give couchbase.scope and couchbase.collection of an existing one`,
    );
  }
  return new UnreachableError('couchbase', display, await unreachableReason(config, error, stage));
}

/** Why the cluster, or the bucket's collection, did not answer, with a TLS mismatch named when the KV port proves one. */
async function unreachableReason(
  config: CouchbaseConfig,
  error: unknown,
  stage: 'bootstrap' | 'bucket',
): Promise<string> {
  const reason = reasonOf(error);
  const ms = config.connectTimeoutMs;
  const certificate = untrustedCertificate(error);
  if (certificate) return certificate;
  if (stage === 'bootstrap') {
    // The SDK retries a refused connection until its timeout, so a wrong port reads as "no answer".
    const addresses = kvAddresses(config);
    const refused = await Promise.all(addresses.map(({ host, port }) => refusesConnections(host, port)));
    if (refused.every(Boolean))
      return `connection refused at ${addresses.map(({ host, port }) => `${host}:${port}`).join(', ')}: nothing listens there; start Couchbase or correct the host and the KV port (11210, 11207 with TLS)`;
    const mismatch = await tlsMismatch(config);
    if (mismatch) return `${mismatch} (${reason})`;
  }
  if (error instanceof TimeoutError || /did not finish within/.test(reason)) {
    const where = `bucket "${config.url.bucket}", collection ${config.scope}.${config.collection}`;
    return stage === 'bootstrap'
      ? `no Couchbase cluster answered within ${ms} ms (couchbase.connectTimeout) (${reason})`
      : `the cluster answered, but ${where} did not within ${ms} ms: it may not exist, or the user may not access it (${reason})`;
  }
  return reason;
}

/** The KV ports the SDK bootstraps on: the URL's, else Couchbase's 11210 (11207 with TLS). */
function kvAddresses(config: CouchbaseConfig): { host: string; port: number }[] {
  const hosts = config.url.connectionString
    .replace(/^couchbases?:\/\//, '')
    .replace(/\?.*$/, '')
    .split(/[,;]/);
  return hosts.slice(0, 3).map((entry) => {
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?/.exec(entry.trim());
    return { host: match?.[1] ?? entry, port: match?.[2] ? Number(match[2]) : config.url.tls ? 11207 : 11210 };
  });
}

/** A NOOP of memcached's binary protocol (Couchbase's KV): 24 bytes of header, magic 0x80, opcode 0x0a. */
const KV_NOOP = Buffer.from([0x80, 0x0a, ...new Array<number>(22).fill(0)]);
const KV_RESPONSE_MAGIC = 0x81;

/**
 * couchbases:// at a plain KV port: the TLS handshake gets a plain answer or none; couchbase://
 * at a TLS port: the plain hello is dropped. The port itself says which it speaks.
 */
async function tlsMismatch(config: CouchbaseConfig): Promise<string | undefined> {
  for (const { host, port } of kvAddresses(config)) {
    if (config.url.tls) {
      const answer = await plainAnswer(host, port, KV_NOOP);
      if (answer?.[0] === KV_RESPONSE_MAGIC)
        return `TLS mismatch: ${host}:${port} speaks Couchbase's KV protocol without TLS; use couchbase:// (couchbases:// is for a TLS port, 11207)`;
    } else if (await speaksTls(host, port)) {
      return `TLS mismatch: ${host}:${port} speaks TLS; use couchbases://`;
    }
  }
  return undefined;
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

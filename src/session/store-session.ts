/**
 * Opening a store for any entry point (the CLI's commands, the service, the studies, the
 * scenarios): the given URL, or docbench's local server for the store, started on demand; and
 * what a result records about it afterwards. Needs no YCSB workload: only the store's settings
 * and how many operations its caller keeps in flight.
 */
import { maskUrl } from '../common/mask-url.ts';
import { UsageError } from '../common/user-error.ts';
import { localTarget, hasLocalTarget } from '../local/targets.ts';
import type { StoreInfo } from '../results/schema.ts';
import { fixedUrl, settingsOf, storeFactory, storeName } from '../stores/stores.ts';
import type { Store, StoreStats } from '../stores/store.ts';
import { interrupts } from '../common/interrupts.ts';

export interface OpenStore {
  store: Store;
  url: string;
  /** True when docbench's own local server is used (no --url given). */
  local: boolean;
  targetProduct?: string;
  targetStandIn?: { name: string; note: string };
}

/** What opening a store needs besides where it is. */
export interface StoreRequest {
  /**
   * `-p` store settings (`redis.driver`, `mongodb.maxPoolSize`, …), as a map that may hold every
   * store's: each store takes those with its own prefix.
   */
  settings: Readonly<Record<string, string>>;
  /** Operations the caller keeps in flight at once: it sizes the store's connection pool. */
  concurrency: number;
}

/** A YCSB workload's store settings and threadcount, as a store request. */
export function requestOf(properties: {
  passthrough: Readonly<Record<string, string>>;
  threadcount: number;
}): StoreRequest {
  return { settings: properties.passthrough, concurrency: properties.threadcount };
}

/** `key=value` assignments (store settings only, as `-p` gives them) and a concurrency, as a store request. */
export function requestFrom(assignments: readonly string[], concurrency: number): StoreRequest {
  const settings: Record<string, string> = {};
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0) throw new UsageError(`-p ${a}: expected key=value`);
    settings[a.slice(0, eq).trim()] = a.slice(eq + 1).trim();
  }
  return { settings, concurrency };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Connect to a store: the given URL, or else docbench's local server for it, started on demand
 * (so `docbench run --store redis` works on a fresh machine).
 */
export async function openStore(name: string, url: string | undefined, request: StoreRequest): Promise<OpenStore> {
  const factory = await storeFactory(name);
  let resolvedUrl = url;
  let local = false;
  let targetProduct: string | undefined;
  let targetStandIn: OpenStore['targetStandIn'];
  let start: (() => Promise<void>) | undefined;
  if (resolvedUrl === undefined) {
    const fixed = fixedUrl(storeName(name));
    if (fixed !== undefined) resolvedUrl = fixed;
    else if (hasLocalTarget(name)) {
      const target = await localTarget(name);
      resolvedUrl = target.url;
      local = true;
      start = async () => {
        await target.start(log);
        const info = await target.info();
        targetProduct = info.product;
        if (info.standIn) targetStandIn = { name: info.product, note: info.limits };
      };
    } else {
      throw new UsageError(`--url is required for store "${name}"`);
    }
  }
  // The store checks its URL and settings when it is made: a bad setting fails before any local
  // server is installed or started. The runner's concurrency sizes the connection pools.
  const store = factory({
    url: resolvedUrl,
    settings: settingsOf(storeName(name), request.settings),
    concurrency: request.concurrency,
  });
  await start?.();
  await store.connect();
  return {
    store,
    url: resolvedUrl,
    local,
    ...(targetProduct ? { targetProduct } : {}),
    ...(targetStandIn ? { targetStandIn } : {}),
  };
}

/** How long one post-run stats call may take, and how long to wait before the one retry. */
const STATS_TIMEOUT_MS = 10_000;
const STATS_RETRY_AFTER_MS = 1000;

/**
 * The store's stats after a run. The store may have gone down (or be reconnecting) as the run
 * ended: one retry a second later, each try bounded, and then the result is written without the
 * figures, saying what could not be read rather than losing the run.
 */
async function readStats(store: Store): Promise<{ stats: StoreStats; unread?: string }> {
  let lastError: unknown;
  // Interrupted, the user is waiting for the partial result: one short try.
  const interrupted = interrupts.signal !== undefined;
  for (let attempt = 0; attempt < (interrupted ? 1 : 2); attempt++) {
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, STATS_RETRY_AFTER_MS));
    try {
      return { stats: await withTimeout(store.stats(), interrupted ? STATS_TIMEOUT_MS / 2 : STATS_TIMEOUT_MS) };
    } catch (error) {
      lastError = error;
    }
  }
  const why = (lastError instanceof Error ? lastError.message : String(lastError)).replace(/\s+/g, ' ').slice(0, 200);
  return {
    stats: { server: 'unknown', serverVersion: 'unknown', driver: 'unknown' },
    unread: `server, version, driver and sizes (stats: ${why})`,
  };
}

function withTimeout<T>(pending: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  pending.catch(() => {});
  return Promise.race([pending, limit]).finally(() => clearTimeout(timer));
}

/** How long closing a store after a run may take (a stalled server never answers a QUIT). */
const CLOSE_TIMEOUT_MS = 5000;

/**
 * Close the store after a run; a store that went down or stalled may fail to close cleanly, or
 * not answer at all, which loses nothing (the CLI exits explicitly, sockets and all).
 */
export async function closeQuietly(store: Store): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, CLOSE_TIMEOUT_MS)));
  await Promise.race([store.close().catch(() => {}), limit]);
  clearTimeout(timer);
}

/** What the result records about the store, from the server itself and from the local target. */
export async function describeStore(open: OpenStore): Promise<StoreInfo> {
  const { stats, unread } = await readStats(open.store);
  // A server that cannot say what it is (CouchbaseMock answers no version call) is named from
  // the local target docbench installed and started, and the result says so.
  const fromTarget =
    stats.serverVersion === 'unknown' && open.targetProduct ? splitProduct(open.targetProduct) : undefined;
  const extra = fromTarget ? { ...stats.extra, serverVersionFrom: 'the local target docbench installed' } : stats.extra;
  const standIn =
    stats.standIn ??
    (open.targetStandIn
      ? {
          name: fromTarget?.name ?? open.targetStandIn.name,
          version: fromTarget?.version ?? stats.serverVersion,
          note: open.targetStandIn.note,
        }
      : undefined);
  return {
    name: open.store.name,
    url: maskUrl(open.url),
    server: fromTarget?.name ?? stats.server,
    serverVersion: fromTarget?.version ?? stats.serverVersion,
    driver: stats.driver,
    ...(standIn ? { standIn } : {}),
    ...(stats.compatible ? { compatible: stats.compatible } : {}),
    localTarget: open.local,
    ...(open.targetProduct ? { targetProduct: open.targetProduct } : {}),
    ...(stats.diskBytes !== undefined ? { diskBytes: stats.diskBytes } : {}),
    ...(stats.memoryBytes !== undefined ? { memoryBytes: stats.memoryBytes } : {}),
    ...(stats.recordCount !== undefined ? { recordCount: stats.recordCount } : {}),
    ...(extra ? { extra } : {}),
    ...(unread ? { unread: [unread] } : {}),
    ...(stats.topology ? { topology: stats.topology } : {}),
    ...(stats.consistency ? { consistency: stats.consistency } : {}),
    ...(stats.encrypted !== undefined ? { encrypted: stats.encrypted } : {}),
    ...(stats.notes && stats.notes.length > 0 ? { notes: stats.notes } : {}),
  };
}

/** "CouchbaseMock 1.5.27" -> name and version; a product without a trailing version keeps "unknown". */
function splitProduct(product: string): { name: string; version: string } {
  const match = /^(.*\S)\s+v?(\d[\w.+-]*)$/.exec(product);
  return match ? { name: match[1]!, version: match[2]! } : { name: product, version: 'unknown' };
}

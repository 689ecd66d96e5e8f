import { localTarget, hasLocalTarget } from '../local/targets.ts';
import type { StoreInfo } from '../results/schema.ts';
import { settingsOf, storeFactory, storeName } from '../stores/stores.ts';
import type { Store } from '../stores/store.ts';
import type { WorkloadProperties } from '../workload/properties.ts';
import { UsageError } from './errors.ts';
import { maskUrl } from './mask-url.ts';

export interface OpenStore {
  store: Store;
  url: string;
  /** True when docbench's own local server is used (no --url given). */
  local: boolean;
  targetProduct?: string;
  targetStandIn?: { name: string; note: string };
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Connect to a store: the given URL, or else docbench's local server for it, started on demand
 * (so `docbench run --store redis` works on a fresh machine).
 */
export async function openStore(name: string, url: string | undefined, properties: WorkloadProperties): Promise<OpenStore> {
  const factory = await storeFactory(name);
  let resolvedUrl = url;
  let local = false;
  let targetProduct: string | undefined;
  let targetStandIn: OpenStore['targetStandIn'];
  let start: (() => Promise<void>) | undefined;
  if (resolvedUrl === undefined) {
    if (name === 'basic') resolvedUrl = 'basic://';
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
  const store = factory({ url: resolvedUrl, settings: settingsOf(storeName(name), properties.passthrough), concurrency: properties.threadcount });
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

/** What the result records about the store, from the server itself and from the local target. */
export async function describeStore(open: OpenStore): Promise<StoreInfo> {
  const stats = await open.store.stats();
  // A server that cannot say what it is (CouchbaseMock answers no version call) is named from
  // the local target docbench installed and started, and the result says so.
  const fromTarget = stats.serverVersion === 'unknown' && open.targetProduct ? splitProduct(open.targetProduct) : undefined;
  const extra = fromTarget ? { ...stats.extra, serverVersionFrom: 'the local target docbench installed' } : stats.extra;
  const standIn =
    stats.standIn ??
    (open.targetStandIn ? { name: fromTarget?.name ?? open.targetStandIn.name, version: fromTarget?.version ?? stats.serverVersion, note: open.targetStandIn.note } : undefined);
  return {
    name: open.store.name,
    url: maskUrl(open.url),
    server: fromTarget?.name ?? stats.server,
    serverVersion: fromTarget?.version ?? stats.serverVersion,
    driver: stats.driver,
    ...(standIn ? { standIn } : {}),
    localTarget: open.local,
    ...(open.targetProduct ? { targetProduct: open.targetProduct } : {}),
    ...(stats.diskBytes !== undefined ? { diskBytes: stats.diskBytes } : {}),
    ...(stats.memoryBytes !== undefined ? { memoryBytes: stats.memoryBytes } : {}),
    ...(stats.recordCount !== undefined ? { recordCount: stats.recordCount } : {}),
    ...(extra ? { extra } : {}),
  };
}

/** "CouchbaseMock 1.5.27" -> name and version; a product without a trailing version keeps "unknown". */
function splitProduct(product: string): { name: string; version: string } {
  const match = /^(.*\S)\s+v?(\d[\w.+-]*)$/.exec(product);
  return match ? { name: match[1]!, version: match[2]! } : { name: product, version: 'unknown' };
}

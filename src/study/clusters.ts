/**
 * `docbench study … --nodes N`: the stores whose local target can run a cluster (Redis Cluster, a
 * Cassandra ring) run on a local cluster of N nodes, started here as `docbench up <store> --nodes
 * N` would, and the study's steps are pointed at it by URL; the others run on their one node.
 * How many nodes each store ran on, beside the paper's count, is one of the run's design items.
 */
import { localTarget } from '../local/targets.ts';
import type { UrlSource } from '../session/store-targets.ts';
import { differs, same, type DesignItem, type StudyContext, type StudyPreset } from './preset.ts';

/** The stores of the run that would run on docbench's local server and whose local target can run a cluster, with its fewest nodes. */
export async function clusterCapable(
  stores: readonly string[],
  sourceOf: (store: string) => UrlSource,
): Promise<{ store: string; minNodes: number }[]> {
  const capable: { store: string; minNodes: number }[] = [];
  for (const store of stores) {
    if (sourceOf(store) !== 'local') continue;
    const target = await localTarget(store).catch(() => undefined);
    if (target?.cluster) capable.push({ store, minNodes: target.cluster.minNodes });
  }
  return capable;
}

/** Start each store's local cluster of `nodes` (as `docbench up <store> --nodes N`); `--url store=URL` for each. */
export async function startStudyClusters(
  stores: readonly string[],
  nodes: number,
  log: (line: string) => void,
): Promise<string[]> {
  const urls: string[] = [];
  for (const store of stores) {
    const cluster = (await localTarget(store)).cluster!;
    const status = await cluster.start({ nodes, replicas: 0 }, log);
    urls.push(`${store}=${status.url}`);
  }
  return urls;
}

/** How many nodes each store of the run has beside the paper's, when the paper ran clusters. */
export function nodeItems(
  preset: StudyPreset,
  context: StudyContext,
  sourceOf: (store: string) => UrlSource,
): DesignItem[] {
  const { stores, nodes } = context;
  const clusterStores = context.clusterStores ?? [];
  if (preset.paperNodes === undefined || preset.paperNodes.count <= 1) return [];
  const paperNodes = preset.paperNodes.count;
  const paper = `${paperNodes} nodes per store (${preset.paperNodes.where})`;
  return stores.map((store) => {
    if (sourceOf(store) !== 'local')
      return same(
        `nodes: ${store}`,
        paper,
        'the server named for it: its deployment (nodes, replication) is in every result',
      );
    if (nodes !== undefined && nodes > 1 && clusterStores.includes(store)) {
      const ran = `a local cluster of ${nodes} nodes on this one machine (--nodes ${nodes})`;
      return nodes >= paperNodes
        ? same(`nodes: ${store}`, paper, ran)
        : differs(`nodes: ${store}`, paper, `${ran}: fewer nodes than the paper`);
    }
    const able = context.clusterable?.find((c) => c.store === store);
    const why = able
      ? `; --nodes ${Math.max(paperNodes, able.minNodes)} runs it on a local cluster (of at least ${able.minNodes})`
      : ": docbench's local target for it runs one node only";
    return differs(`nodes: ${store}`, paper, `one node, fewer than the paper${why}`);
  });
}

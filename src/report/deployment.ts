/**
 * One line on the deployment a result measured: the cluster (nodes, masters, replicas, slots per
 * master, replication factor), the consistency its reads and writes asked for, and whether the
 * connections were encrypted. The YCSB text's header and the HTML report's stores table both
 * print it, so no figure is read without it. Pure (the k6 scripts bundle the YCSB text).
 */
import type { StoreInfo } from '../results/schema.ts';

export function deploymentLine(store: StoreInfo): string | undefined {
  const parts: string[] = [];
  const t = store.topology;
  if (t) parts.push(topologyText(t));
  if (store.consistency) parts.push(`reads ${store.consistency.reads}; writes ${store.consistency.writes}`);
  if (store.encrypted !== undefined) parts.push(store.encrypted ? 'TLS' : 'no TLS');
  return parts.length > 0 ? parts.join('; ') : undefined;
}

function topologyText(t: NonNullable<StoreInfo['topology']>): string {
  const down = t.down ? `, ${t.down} seen down after the run` : '';
  if (t.kind === 'single')
    return `one server${t.replicas ? ` with ${t.replicas} replica${t.replicas === 1 ? '' : 's'}` : ''}${down}`;
  if (t.kind === 'redis-cluster') {
    const slots =
      t.slotsPerMaster && t.slotsPerMaster.length > 0 ? ` (slots per master ${t.slotsPerMaster.join('/')})` : '';
    return `Redis Cluster of ${t.nodes} nodes: ${t.masters ?? '?'} masters${slots}, ${t.replicas ?? 0} replicas${down}`;
  }
  if (t.kind === 'cassandra-ring')
    return `Cassandra ring of ${t.nodes} node${t.nodes === 1 ? '' : 's'}, replication factor ${t.replicationFactor ?? '?'}${down}`;
  return `${t.kind} of ${t.nodes} node${t.nodes === 1 ? '' : 's'}${down}`;
}

/**
 * What a Redis Cluster says about itself, read from its own replies: whether cluster mode is on
 * (`INFO cluster`), and its nodes, masters, replicas and slots (`CLUSTER NODES`, whose format the
 * Redis Cluster specification defines: one line per node, `<id> <ip:port@cport[,hostname]>
 * <flags> <master-id> <ping> <pong> <epoch> <link> <slot>…`). Results name the cluster from this.
 */

/** One line of CLUSTER NODES. */
export interface ClusterNode {
  id: string;
  /** `host:port` clients connect to. */
  address: string;
  master: boolean;
  /** The master a replica follows ('-' for a master). */
  masterId: string;
  /** Flagged `fail` or `fail?` by the node answering. */
  failing: boolean;
  /** Slots it serves (masters). */
  slots: number;
}

/** `cluster_enabled:1` in INFO's cluster section (INFO answers it in both modes). */
export function clusterEnabled(info: string): boolean {
  return /^cluster_enabled:1\s*$/m.test(info);
}

export function parseClusterNodes(text: string): ClusterNode[] {
  const nodes: ClusterNode[] = [];
  for (const line of text.split('\n')) {
    const parts = line.trim().split(' ');
    if (parts.length < 8) continue;
    const [id, addr, flags, masterId] = parts as [string, string, string, string];
    const flagList = flags.split(',');
    // Slots are single numbers or ranges; `[slot->-id]` and `[slot-<-id]` are slots being moved.
    let slots = 0;
    for (const slot of parts.slice(8)) {
      if (slot.startsWith('[')) continue;
      const [from, to] = slot.split('-').map(Number);
      slots += to === undefined ? 1 : to - from! + 1;
    }
    nodes.push({
      id,
      address: addr.split('@')[0]!.split(',')[0]!,
      master: flagList.includes('master'),
      masterId,
      failing: flagList.includes('fail') || flagList.includes('fail?'),
      slots,
    });
  }
  return nodes;
}

/** The cluster as a result names it. */
export interface ClusterShape {
  nodes: number;
  /** Masters serving slots (a master that lost all its slots to a failover counts as none). */
  masters: number;
  replicas: number;
  /** Slots of each master serving some, in address order. */
  slotsPerMaster: number[];
  /** Replicas following each of those masters, same order. */
  replicasPerMaster: number[];
  /** Nodes the answering node flags as failing. */
  failing: number;
}

export function clusterShape(nodes: readonly ClusterNode[]): ClusterShape {
  const masters = nodes
    .filter((n) => n.master && n.slots > 0)
    .sort((a, b) => a.address.localeCompare(b.address, 'en', { numeric: true }));
  return {
    nodes: nodes.length,
    masters: masters.length,
    replicas: nodes.filter((n) => !n.master).length,
    slotsPerMaster: masters.map((m) => m.slots),
    replicasPerMaster: masters.map((m) => nodes.filter((n) => !n.master && n.masterId === m.id).length),
    failing: nodes.filter((n) => n.failing).length,
  };
}

/**
 * What the store reports about itself, from the gateway's own resources: the cluster's version
 * (`/version/cluster`, read from the master), the gateway's (`/version`), and from
 * `/status/cluster` the regions of the namespace's tables with their store files and memstores,
 * and the region servers' heap. The status resource gives sizes in whole megabytes per region,
 * so a small table's store files read as 0 until they pass 1 MB; rows still in the memstore
 * (not yet flushed) are in no store file.
 */
import { docbenchVersion } from '../../version.ts';
import type { StoreStats } from '../store.ts';
import type { HbaseHandle } from './handle.ts';
import type { HbaseConfig } from './settings.ts';

interface ClusterStatus {
  regions?: number;
  LiveNodes?: {
    name: string;
    heapSizeMB?: number;
    Region?: { name: string; storefiles?: number; storefileSizeMB?: number; memStoreSizeMB?: number }[];
  }[];
  DeadNodes?: string[];
}

const MIB = 1024 * 1024;

export async function hbaseStats(hbase: HbaseHandle, config: HbaseConfig): Promise<StoreStats> {
  const version = (await hbase.client.expect('GET', '/version/cluster', [200], { accept: 'text/plain' })).body
    .toString('utf8')
    .trim();
  const gateway = JSON.parse(
    (await hbase.client.expect('GET', '/version', [200], { accept: 'application/json' })).body.toString('utf8'),
  ) as { REST?: string; Version?: string };
  const status = JSON.parse(
    (await hbase.client.expect('GET', '/status/cluster', [200], { accept: 'application/json' })).body.toString('utf8'),
  ) as ClusterStatus;

  // Region names are "<table>,<start key>,<id>." with the namespace before a ':' unless it is `default`.
  const ours = (regionName: string) => {
    const table = regionName.slice(0, regionName.indexOf(','));
    return config.namespace === 'default' ? !table.includes(':') : table.startsWith(`${config.namespace}:`);
  };
  let regions = 0;
  let storeFiles = 0;
  let storeFileMB = 0;
  let memStoreMB = 0;
  let heapMB = 0;
  for (const node of status.LiveNodes ?? []) {
    heapMB += node.heapSizeMB ?? 0;
    for (const region of node.Region ?? []) {
      if (!ours(Buffer.from(region.name, 'base64').toString('utf8'))) continue;
      regions++;
      storeFiles += region.storefiles ?? 0;
      storeFileMB += region.storefileSizeMB ?? 0;
      memStoreMB += region.memStoreSizeMB ?? 0;
    }
  }
  return {
    server: 'Apache HBase',
    serverVersion: version,
    driver: `docbench-hbase-rest ${docbenchVersion()} (node:http, ${config.format}) to the HBase REST gateway ${gateway.Version ?? '?'}`,
    diskBytes: storeFileMB * MIB,
    memoryBytes: heapMB * MIB,
    extra: {
      namespace: config.namespace,
      columnFamily: config.family,
      wireFormat: config.format,
      regions,
      storeFiles,
      storeFileSizeMB: storeFileMB,
      memStoreSizeMB: memStoreMB,
      regionServers: status.LiveNodes?.length ?? 0,
      deadRegionServers: status.DeadNodes?.length ?? 0,
    },
  };
}

export interface TableSizes {
  regions: number;
  storeFileSizeMB: number;
  memStoreSizeMB: number;
}

/** The regions of these tables and their sizes, in whole MB as the status resource gives them. */
export async function tableSizes(hbase: HbaseHandle, tables: readonly string[]): Promise<TableSizes> {
  const status = JSON.parse(
    (await hbase.client.expect('GET', '/status/cluster', [200], { accept: 'application/json' })).body.toString('utf8'),
  ) as ClusterStatus;
  const names = new Set(tables.map((t) => hbase.qualified(t)));
  const out: TableSizes = { regions: 0, storeFileSizeMB: 0, memStoreSizeMB: 0 };
  for (const node of status.LiveNodes ?? []) {
    for (const region of node.Region ?? []) {
      const name = Buffer.from(region.name, 'base64').toString('utf8');
      if (!names.has(name.slice(0, name.indexOf(',')))) continue;
      out.regions++;
      out.storeFileSizeMB += region.storefileSizeMB ?? 0;
      out.memStoreSizeMB += region.memStoreSizeMB ?? 0;
    }
  }
  return out;
}

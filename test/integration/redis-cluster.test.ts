/**
 * Redis Cluster end to end, on a cluster of the test's own (3 masters with a replica each, made
 * by docbench's own local-cluster code on free ports): YCSB A–H on both clients with every
 * answer verified, both scenarios (their oracles check every answer), and failover under load:
 * a master with a replica killed mid-run and restarted, the outage recorded per operation kind,
 * the run recovering, and the failover check's count of lost acknowledged writes, non-zero when
 * the master acknowledged writes its replica never got (its replication link cut first), zero
 * when each write waits for a replica (redis.wait). Then a cluster over TLS with a password and
 * a throwaway CA the test makes, whose result says the run was encrypted. Only counts and
 * orderings are asserted, never wall-clock figures.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { openStore, requestOf, type OpenStore } from '../../src/session/store-session.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { parseClusterNodes } from '../../src/stores/redis/cluster-topology.ts';
import { loadWorkload } from '../../src/workload/workload-file.ts';
import { runDocbench } from '../support/cli.ts';
import { runDocbenchAsync } from '../support/forwarder.ts';
import { privateRedisCluster, type PrivateRedisCluster } from '../support/private-cluster.ts';
import { privateRedis } from '../support/private-server.ts';
import { servingFor, statusLines } from '../support/status-lines.ts';
import { waitFor } from '../support/wait.ts';
import { assertAllVerified, runVerifiedWorkload } from '../support/verified-ycsb.ts';

const DRIVERS = ['ioredis', 'node-redis'] as const;
const WORKLOADS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];
const RECORDS = 1000;
const OVERRIDES = [
  `recordcount=${RECORDS}`,
  'operationcount=400',
  'threadcount=4',
  'dataintegrity=true',
  'table=ycsbcluster',
];
const dir = mkdtempSync(join(tmpdir(), 'docbench-redis-cluster-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const readResult = (path: string): Result => resultSchema.parse(JSON.parse(readFileSync(path, 'utf8')));

describe('Redis Cluster: 3 masters with a replica each', { concurrency: false, timeout: 1_500_000 }, () => {
  let cluster: PrivateRedisCluster;

  before(async () => {
    cluster = await privateRedisCluster({ masters: 3, replicas: 1 });
    if (!cluster.missing) await cluster.start();
  });

  after(async () => {
    await cluster?.dispose();
  });

  for (const driver of DRIVERS) {
    it(`YCSB A–H through ${driver}: fresh loads, zero errors, verified reads, ordered scans, intact records; the result names the cluster`, async (t) => {
      if (cluster.missing) return t.skip(cluster.missing);
      const settings = [`redis.driver=${driver}`];
      const open: OpenStore = await openStore(
        'redis',
        cluster.url,
        requestOf(loadWorkload(['workloada'], [...OVERRIDES, ...settings]).properties),
      );
      try {
        for (const w of WORKLOADS) {
          const result = await runVerifiedWorkload(open, w, [...OVERRIDES, ...settings]);
          assert.equal(result.overall.operations, 400, w);
          if (w === 'a') {
            const topology = result.store.topology!;
            assert.equal(topology.kind, 'redis-cluster');
            assert.equal(topology.masters, 3);
            assert.equal(topology.replicas, 3);
            assert.equal(
              topology.slotsPerMaster!.reduce((a, b) => a + b, 0),
              16_384,
            );
            assert.match(result.store.notes!.join(' '), /an insert is two writes/);
          }
        }
        await open.store.drop({ table: 'ycsbcluster', fieldNames: [] });
      } finally {
        await open.store.close();
      }
    });
  }

  for (const driver of DRIVERS) {
    it(`the persons and e-commerce scenarios through ${driver}: every answer agrees with the oracle`, async (t) => {
      if (cluster.missing) return t.skip(cluster.missing);
      for (const indexes of [false, true]) {
        const out = join(dir, `persons-${driver}-${indexes}`);
        const run = runDocbench(
          [
            'persons',
            '--store',
            'redis',
            '--url',
            `redis=${cluster.url}`,
            '--size',
            '500',
            '--repeat',
            '1',
            ...(indexes ? ['--indexes'] : []),
            '-p',
            `redis.driver=${driver}`,
            '--out-dir',
            out,
            '-q',
          ],
          { timeoutMs: 300_000 },
        );
        assert.equal(run.code, 0, run.stderr);
        for (const file of readdirSync(out).filter((f) => f.endsWith('.json'))) {
          const result = readResult(join(out, file));
          assert.equal(result.verdict?.status, 'valid', `${file}: ${JSON.stringify(result.verdict)}`);
          assertAllVerified(result);
        }
      }
      const out = join(dir, `ecommerce-${driver}`);
      const run = runDocbench(
        [
          'ecommerce',
          '--stores',
          'redis',
          '--url',
          `redis=${cluster.url}`,
          '--customers',
          '300',
          '--workloads',
          'pagination,join,mix,search,report',
          '-p',
          'operationcount=300',
          '-p',
          `redis.driver=${driver}`,
          '--out-dir',
          out,
          '-q',
        ],
        { timeoutMs: 300_000 },
      );
      assert.equal(run.code, 0, run.stderr);
      const results = readdirSync(out).filter((f) => f.endsWith('.json') && f.startsWith('redis-'));
      assert.ok(
        results.some((f) => f.includes('mix')),
        results.join(', '),
      );
      for (const file of results) {
        const result = readResult(join(out, file));
        assert.equal(result.verdict?.status, 'valid', `${file}: ${JSON.stringify(result.verdict)}`);
        assertAllVerified(result);
      }
    });
  }

  /**
   * Kill a master that has a replica, under load: the replica paused and the master's link to
   * it cut first, so for a second the master acknowledges writes no replica has; then the master
   * is killed, the replica resumed (it takes over), and the killed node restarted (it rejoins as
   * a replica).
   */
  async function failMaster(progress: () => string): Promise<void> {
    const nodes = parseClusterNodes(cluster.cli(cluster.options.basePort, 'CLUSTER', 'NODES'));
    const master = nodes.find(
      (n) => n.master && n.slots > 0 && !n.failing && nodes.some((r) => !r.master && !r.failing && r.masterId === n.id),
    )!;
    const replica = nodes.find((r) => !r.master && !r.failing && r.masterId === master.id)!;
    const port = (address: string) => Number(address.split(':')[1]);
    const [masterPort, replicaPort] = [port(master.address), port(replica.address)];
    await waitFor(() => statusLines(progress()) >= 3, 'the run to get going', { limitMs: 60_000 });
    const replicaPid = cluster.pidOf(replicaPort);
    process.kill(replicaPid, 'SIGSTOP');
    assert.match(cluster.cli(masterPort, 'CLIENT', 'KILL', 'TYPE', 'replica'), /^1/);
    await sleep(1000);
    process.kill(cluster.pidOf(masterPort), 'SIGKILL');
    process.kill(replicaPid, 'SIGCONT');
    await waitFor(() => /^master/.test(cluster.cli(replicaPort, 'ROLE')), 'the replica to take over', {
      everyMs: 250,
      limitMs: 60_000,
    });
    await cluster.nodes.find((n) => n.spec.ports[0] === masterPort)!.start(() => {});
    await waitFor(
      () => /master_link_status:up/.test(cluster.cli(masterPort, 'INFO', 'replication')),
      'the killed master to rejoin as a replica',
      { everyMs: 250, limitMs: 60_000 },
    );
  }

  const FAILOVER_RUN = [
    '-P',
    'workloada',
    '-p',
    'readproportion=0.5',
    '-p',
    'updateproportion=0',
    '-p',
    'insertproportion=0.5',
    '-p',
    'dataintegrity=true',
    '-p',
    'failovercheck=true',
    '-p',
    'table=failover',
  ];

  for (const [name, wait] of [
    ['without WAIT: the writes the lost master acknowledged alone are lost, and counted', undefined],
    ['with redis.wait=1,100: no acknowledged write is lost', '1,100'],
  ] as const) {
    it(`a master killed mid-run ${name}; the outage recorded per operation, the run recovers`, async (t) => {
      if (cluster.missing) return t.skip(cluster.missing);
      const common = ['--store', 'redis', '--url', cluster.url, ...FAILOVER_RUN, '-p', 'recordcount=1000'];
      const load = runDocbench(['load', ...common, '--fresh', '-q'], { timeoutMs: 120_000 });
      assert.equal(load.code, 0, load.stderr);
      const out = join(dir, `failover-${wait ?? 'nowait'}.json`);
      let stderr = '';
      const interrupt = new AbortController();
      const run = runDocbenchAsync(
        [
          'run',
          ...common,
          ...(wait ? ['-p', `redis.wait=${wait}`] : []),
          '-p',
          'operationcount=200000',
          '-p',
          'maxexecutiontime=120',
          '-p',
          'status.interval=1',
          '--target',
          '400',
          '--threads',
          '8',
          '--out',
          out,
        ],
        {
          timeoutMs: 180_000,
          onStderr: (chunk) => (stderr += chunk),
          interrupt: interrupt.signal,
        },
      );
      await failMaster(() => stderr);
      // Stopped (as by Ctrl-C) once every operation succeeds again, rather than after a fixed
      // time: the failover check still reads back every acknowledged write.
      await waitFor(() => servingFor(stderr, 3), 'the cluster to serve every operation again', {
        limitMs: 100_000,
      });
      interrupt.abort();
      const done = await run;
      assert.equal(done.code, 130, done.stderr);
      const result = readResult(out);
      assert.equal(result.partial?.reason, 'SIGINT');
      t.diagnostic(
        JSON.stringify({
          faults: result.faults,
          lostWrites: result.lostWrites,
          returns: result.returns,
          errors: result.operations.flatMap((o) => o.errorSamples ?? []),
        }),
      );
      const faults = result.faults!;
      assert.ok(faults.failedOperations > 0, 'failed operations counted');
      assert.ok(faults.outages.length >= 1 && faults.outages.at(-1)!.recovered, JSON.stringify(faults.outages));
      assert.ok((faults.byOperation ?? []).length >= 1, "each operation kind's outage recorded");
      for (const o of faults.byOperation!)
        assert.ok(o.fromSecond < o.toSecond && o.failed > 0 && Object.keys(o.failures).length > 0, JSON.stringify(o));
      assert.ok(
        faults.byOperation!.some((o) => o.recovered),
        'an operation kind succeeded again after its outage',
      );
      const lost = result.lostWrites!;
      assert.ok(lost.checkedRecords > RECORDS, 'the loaded and the inserted records were read back');
      assert.equal(lost.unreadableRecords, 0);
      assert.equal(lost.unrecognisedFields, 0);
      if (wait) {
        assert.equal(lost.lostFields, 0, JSON.stringify(lost.samples));
        assert.ok((result.returns.TIMEOUT ?? 0) > 0, 'writes no replica acknowledged in time failed as TIMEOUT');
        assert.match(result.store.consistency!.writes, /^WAIT 1 100 /);
      } else {
        assert.ok(lost.lostFields > 0, 'the writes only the killed master had are counted lost');
        assert.ok(lost.samples.length > 0);
      }
      assert.match(done.stdout, /^# LOST WRITES: /m);
      assert.match(done.stdout, /^# OUTAGE of (READ|INSERT): /m);
    });
  }
});

describe('Redis over TLS with a password and a throwaway CA', { concurrency: false, timeout: 600_000 }, () => {
  it('a TLS cluster (3 masters) through both clients, and a TLS single server: verified runs whose results say they were encrypted', async (t) => {
    const cluster = await privateRedisCluster({ masters: 3, replicas: 0, tls: true, password: 's3cret' });
    if (cluster.missing) return t.skip(cluster.missing);
    const single = await privateRedis({ tls: true });
    try {
      await cluster.start();
      await single.start();
      for (const [url, ca, topology] of [
        [cluster.url, cluster.certificates!.ca, 'redis-cluster'],
        [single.url, single.certificates!.ca, 'single'],
      ] as const) {
        assert.match(url, /^rediss:\/\//);
        for (const driver of DRIVERS) {
          const common = [
            '--store',
            'redis',
            '--url',
            url,
            '-P',
            'workloada',
            '-p',
            'recordcount=300',
            '-p',
            'dataintegrity=true',
            '-p',
            `redis.driver=${driver}`,
            '-q',
          ];
          const env = { ...process.env, NODE_EXTRA_CA_CERTS: ca };
          const load = await runDocbenchAsync(['load', ...common, '--fresh'], { env, timeoutMs: 120_000 });
          assert.equal(load.code, 0, load.stderr);
          const out = join(dir, `tls-${topology}-${driver}.json`);
          const run = await runDocbenchAsync(['run', ...common, '-p', 'operationcount=300', '--out', out], {
            env,
            timeoutMs: 120_000,
          });
          assert.equal(run.code, 0, run.stderr);
          const result = readResult(out);
          assert.equal(result.store.encrypted, true);
          assert.equal(result.store.topology?.kind, topology);
          assertAllVerified(result);
          assert.match(run.stdout, /^# DEPLOYMENT: .*; TLS$/m);
        }
      }
    } finally {
      await single.dispose();
      await cluster.dispose();
    }
  });
});

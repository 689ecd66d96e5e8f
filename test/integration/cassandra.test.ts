import assert from 'node:assert/strict';
import { it } from 'node:test';
import { parseCassandraUrl } from '../../src/stores/cassandra.ts';
import { describeStoreContract } from './store-contract.ts';

describeStoreContract({
  store: 'cassandra',
  unreachableUrl: 'cassandra://127.0.0.1:1/?datacenter=datacenter1',
  // YCSB's CQL binding: INSERT/UPDATE are upserts and DELETE cannot tell whether the row existed.
  updateDetectsMissing: false,
  deleteDetectsMissing: false,
  // The contract's scan keys ("scan" + 5 digits) spread over ~100 six-character buckets,
  // so its scans cross many bucket (partition) boundaries.
  settings: { 'cassandra.scanbucketlength': '6' },
  extra: (get) => {
    it('reports replication and consistency settings', async () => {
      const stats = await get().stats();
      assert.equal(stats.extra?.readConsistency, 'one');
      assert.match(String(stats.extra?.replication), /SimpleStrategy/);
    });
  },
});

it('parses Cassandra URLs with host lists, credentials, keyspace and datacenter', () => {
  assert.deepEqual(parseCassandraUrl('cassandra://u:p%40ss@h1,h2:9043/shop?datacenter=dc2'), {
    contactPoints: ['h1:9043', 'h2:9043'],
    keyspace: 'shop',
    datacenter: 'dc2',
    username: 'u',
    password: 'p@ss',
  });
  assert.deepEqual(parseCassandraUrl('cassandra://127.0.0.1:19042/?datacenter=datacenter1').contactPoints, ['127.0.0.1:19042']);
});

/**
 * The Cassandra store's URL and settings, without a server: what parses, and the one-line user
 * error every bad URL or setting gets.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SettingError } from '../../src/common/settings.ts';
import { UserError } from '../../src/common/user-error.ts';
import { createStore } from '../../src/stores/cassandra/index.ts';
import { cassandraConfig } from '../../src/stores/cassandra/settings.ts';
import { replicationFactorOf } from '../../src/stores/cassandra/stats.ts';
import { cassandraRingUrl, replicationFactorFor, ringHeapMiB } from '../../src/stores/cassandra/local-cluster.ts';
import { peerPort } from '../../src/stores/cassandra/connection.ts';
import { CassandraUrlError, maskPassword, parseCassandraUrl } from '../../src/stores/cassandra/url.ts';

const LOCAL = 'cassandra://127.0.0.1:19042/?datacenter=datacenter1';
const config = (settings: Record<string, string>, url = LOCAL) => cassandraConfig({ url, settings, concurrency: 1 });

describe('cassandra URL', () => {
  it('parses host lists, credentials, keyspace and datacenter', () => {
    assert.deepEqual(parseCassandraUrl('cassandra://u:p%40ss@h1,h2:9043/shop?datacenter=dc2'), {
      contactPoints: ['h1:9043', 'h2:9043'],
      keyspace: 'shop',
      datacenter: 'dc2',
      tls: false,
      username: 'u',
      password: 'p@ss',
    });
    assert.deepEqual(parseCassandraUrl(LOCAL), {
      contactPoints: ['127.0.0.1:19042'],
      datacenter: 'datacenter1',
      tls: false,
    });
    assert.equal(parseCassandraUrl('cassandra://h1/?datacenter=dc1&tls=true').tls, true);
  });

  it("gives each host its own port, the last host's port to hosts without one, else 9042", () => {
    assert.deepEqual(parseCassandraUrl('cassandra://a:9001,b,c:9003').contactPoints, ['a:9001', 'b:9003', 'c:9003']);
    assert.deepEqual(parseCassandraUrl('cassandra://a,b').contactPoints, ['a:9042', 'b:9042']);
    assert.deepEqual(parseCassandraUrl('cassandra://[::1],[fe80::2]:9050/ks').contactPoints, [
      '[::1]:9050',
      '[fe80::2]:9050',
    ]);
  });

  it('masks the password (and only the password)', () => {
    assert.equal(maskPassword('cassandra://u:s3cret@h1,h2/ks'), 'cassandra://u:***@h1,h2/ks');
    assert.equal(maskPassword('cassandra://u:p@ss@h:9042/ks'), 'cassandra://u:***@h:9042/ks');
    assert.equal(maskPassword('cassandra://u@h:9042/ks'), 'cassandra://u@h:9042/ks');
    assert.equal(maskPassword(LOCAL), LOCAL);
  });

  const BAD_URLS: [url: string, problem: RegExp][] = [
    ['http://admin:s3cret@127.0.0.1:9042', /is not a cassandra:\/\/ URL/],
    ['cassandra:/admin:s3cret@127.0.0.1', /is not a cassandra:\/\/ URL/],
    ['cassandra://admin:s3cret@/ks', /has no host/],
    ['cassandra://admin:s3cret@h1,,h2', /empty entry in its host list/],
    ['cassandra://admin:s3cret@h1:port', /has the port "port"; a port is a number from 1 to 65535/],
    ['cassandra://admin:s3cret@h1:70000', /has the port "70000"/],
    ['cassandra://admin:s3cret@::1/ks', /which is not host or host:port/],
    ['cassandra://admin:s3cret@h1/my-keyspace', /keyspace "my-keyspace", which is not a CQL keyspace name/],
    ['cassandra://admin:s3cret@h1/a/b', /keyspace "a\/b"/],
    [
      'cassandra://admin:s3cret@h1/?dc=dc1',
      /parameter "dc", which docbench does not know \(it takes datacenter, tls\)/,
    ],
    ['cassandra://admin:s3cret@h1/?tls=yes', /has tls=yes; tls is true or false/],
    ['cassandra://admin:s3cret@h1/?datacenter=', /has an empty datacenter/],
    ['cassandra://:s3cret@h1', /has a password but no user name/],
    ['cassandra://admin:s3cret%zz@h1', /malformed %-escape in its password/],
  ];
  for (const [url, problem] of BAD_URLS) {
    it(`rejects ${maskPassword(url)} in one line, password masked`, () => {
      assert.throws(
        () => createStore({ url, settings: {}, concurrency: 1 }),
        (error: unknown) => {
          assert.ok(error instanceof CassandraUrlError && error instanceof UserError, String(error));
          assert.match(error.message, problem);
          assert.match(error.message, /expected cassandra:\/\/\[USER:PASSWORD@\]host/, 'names the expected shape');
          assert.doesNotMatch(error.message, /s3cret/);
          assert.match(error.message, /:\*\*\*@/);
          assert.doesNotMatch(error.message, /\n/);
          return true;
        },
      );
    });
  }
});

describe('cassandra settings', () => {
  it("applies YCSB's defaults, the URL's keyspace, and the caller's concurrency", () => {
    const c = config({}, 'cassandra://u:pw@h1/shop');
    assert.equal(c.keyspace, 'shop');
    assert.equal(c.displayUrl, 'cassandra://u:***@h1/shop');
    assert.deepEqual(c.credentials, { username: 'u', password: 'pw' });
    assert.equal(
      c.replication,
      undefined,
      "the default: SimpleStrategy, factor min(3, the cluster's nodes), known once connected",
    );
    assert.equal(c.tls, false);
    assert.equal(c.scanBucketLength, 6);
    assert.equal(config({}).keyspace, 'ycsb');
    assert.equal(cassandraConfig({ url: LOCAL, settings: {}, concurrency: 32 }).concurrency, 32);
  });

  it("takes every setting, consistency levels in YCSB's spelling in any case", () => {
    const c = config(
      {
        'cassandra.keyspace': 'bench',
        'cassandra.replication': "{'class': 'NetworkTopologyStrategy', 'dc1': 3}",
        'cassandra.readconsistencylevel': 'local_quorum',
        'cassandra.writeconsistencylevel': 'ALL',
        'cassandra.scanbucketlength': '8',
      },
      'cassandra://h1/shop',
    );
    assert.equal(c.keyspace, 'bench', 'the setting wins over the URL');
    assert.equal(c.replication, "{'class': 'NetworkTopologyStrategy', 'dc1': 3}");
    assert.equal(c.readConsistency, 6, 'consistencies.localQuorum');
    assert.equal(c.writeConsistency, 5, 'consistencies.all');
    assert.equal(c.scanBucketLength, 8);
  });

  it('an unknown cassandra.* setting is a SettingError with a did-you-mean', () => {
    assert.throws(
      () => createStore({ url: LOCAL, settings: { 'cassandra.scanbucketlenght': '6' }, concurrency: 1 }),
      (error: unknown) => {
        assert.ok(error instanceof SettingError);
        assert.match(
          error.message,
          /^unknown setting cassandra\.scanbucketlenght \(did you mean "cassandra\.scanbucketlength"\?\); cassandra understands cassandra\.keyspace, /,
        );
        return true;
      },
    );
  });

  it("other stores' settings and the retired docbench.threadcount are not the store's business", () => {
    assert.doesNotThrow(() => config({ 'redis.driver': 'ioredis', 'docbench.threadcount': '8' }));
  });

  const BAD_VALUES: [key: string, value: string, expected: RegExp][] = [
    ['cassandra.scanbucketlength', 'six', /expected a whole number >= 1/],
    ['cassandra.scanbucketlength', '0', /expected a whole number >= 1/],
    ['cassandra.readconsistencylevel', 'MOST', /expected one of ANY, ONE, TWO, THREE, QUORUM, ALL, LOCAL_QUORUM/],
    ['cassandra.writeconsistencylevel', '', /expected one of ANY/],
    ['cassandra.keyspace', 'my-keyspace', /expected a CQL keyspace name/],
    ['cassandra.replication', 'SimpleStrategy', /expected a CQL replication map/],
  ];
  for (const [key, value, expected] of BAD_VALUES) {
    it(`${key}=${value} is a one-line SettingError naming the key, the value and what was expected`, () => {
      assert.throws(
        () => config({ [key]: value }),
        (error: unknown) => {
          assert.ok(error instanceof SettingError);
          assert.ok(error.message.startsWith(`${key}=${value}: `), error.message);
          assert.match(error.message, expected);
          assert.doesNotMatch(error.message, /\n/);
          return true;
        },
      );
    });
  }
});

describe('cassandra replication factor of a keyspace', () => {
  it("reads SimpleStrategy's factor, or NetworkTopologyStrategy's for the local data center", () => {
    assert.equal(
      replicationFactorOf(
        { class: 'org.apache.cassandra.locator.SimpleStrategy', replication_factor: '3' },
        'datacenter1',
      ),
      3,
    );
    assert.equal(
      replicationFactorOf({ class: 'org.apache.cassandra.locator.NetworkTopologyStrategy', dc1: '2', dc2: '5' }, 'dc1'),
      2,
    );
    assert.equal(
      replicationFactorOf({ class: 'org.apache.cassandra.locator.NetworkTopologyStrategy', dc2: '5' }, 'dc1'),
      undefined,
    );
  });
});

describe('a local Cassandra ring', () => {
  it("sizes each node's heap so the ring fits an eighth of the machine, 512 MB to 1 GB; its URL lists every node; the driver is told the ring's port", () => {
    const GiB = 2 ** 30;
    assert.equal(ringHeapMiB(3, 24 * GiB), 1024);
    assert.equal(ringHeapMiB(3, 16 * GiB), 640);
    assert.equal(ringHeapMiB(6, 8 * GiB), 512);
    assert.equal(
      cassandraRingUrl({ nodes: 3, cqlPort: 19142 }),
      'cassandra://cassandra:cassandra@127.0.0.1,127.0.0.2,127.0.0.3:19142/?datacenter=datacenter1',
    );
    assert.equal(replicationFactorFor(2), 2);
    assert.equal(replicationFactorFor(5), 3);
    assert.equal(peerPort(['127.0.0.1:19142', '127.0.0.2:19142']), 19142);
    assert.equal(peerPort(parseCassandraUrl('cassandra://a,b').contactPoints), 9042);
  });
});

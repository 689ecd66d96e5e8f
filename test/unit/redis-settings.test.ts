/**
 * The Redis store's URL and settings, checked before any connection: every bad one is a one-line
 * user error naming it (with the URL's password masked), and the good ones give the typed
 * configuration the store is built from.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SettingError } from '../../src/common/settings.ts';
import { UserError } from '../../src/common/user-error.ts';
import { createStore } from '../../src/stores/redis/index.ts';
import { redisConfig } from '../../src/stores/redis/settings.ts';
import { maskUrl, nodeUrl, parseRedisUrl, RedisUrlError } from '../../src/stores/redis/url.ts';
import { clusterEnabled, clusterShape, parseClusterNodes } from '../../src/stores/redis/cluster-topology.ts';

const URL = 'redis://127.0.0.1:6379';
const store = (settings: Record<string, string>, url = URL) => createStore({ url, settings, concurrency: 4 });

/** A one-line user error of the given class whose message matches `pattern`. */
function assertOneLine(fn: () => unknown, type: new (...args: never[]) => UserError, pattern: RegExp): string {
  let message = '';
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof type, `expected a ${type.name}, got ${String(error)}`);
    message = error.message;
    return true;
  });
  assert.doesNotMatch(message, /\n/);
  assert.match(message, pattern);
  return message;
}

describe('redis settings', () => {
  it('defaults: node-redis, no auto-pipelining, one connection, the URL as given', () => {
    const config = redisConfig(URL, {});
    assert.equal(config.driver, 'node-redis');
    assert.equal(config.autoPipelining, false);
    assert.equal(config.connections, 1);
    assert.equal(config.commandTimeoutMs, 30_000);
    assert.equal(config.url.text, URL);
    assert.deepEqual(
      { host: config.url.host, port: config.url.port, database: config.url.database, tls: config.url.tls },
      { host: '127.0.0.1', port: 6379, database: 0, tls: false },
    );
  });

  it("reads every setting, and ignores other stores' settings", () => {
    const config = redisConfig(URL, { 'redis.driver': 'node-redis', 'mongodb.writeConcern': 'majority' });
    assert.equal(config.driver, 'node-redis');
    assert.equal(redisConfig(URL, { 'redis.driver': 'ioredis', 'redis.autopipelining': 'true' }).autoPipelining, true);
    assert.equal(redisConfig(URL, { 'redis.connections': '4' }).connections, 4);
    assert.equal(redisConfig(URL, { 'redis.commandtimeout': '1500' }).commandTimeoutMs, 1500);
  });

  it('an unknown redis.* setting is a SettingError with a did-you-mean', () => {
    assertOneLine(
      () => store({ 'redis.drivr': 'ioredis' }),
      SettingError,
      /^unknown setting redis\.drivr \(did you mean "redis\.driver"\?\); redis understands redis\.driver, redis\.autopipelining, redis\.connections, redis\.commandtimeout, redis\.wait$/,
    );
    assertOneLine(() => store({ 'redis.autopipeline': 'true' }), SettingError, /did you mean "redis\.autopipelining"/);
  });

  it('a bad value is a SettingError naming the key, the value and what was expected', () => {
    assertOneLine(
      () => store({ 'redis.driver': 'jedis' }),
      SettingError,
      /^redis\.driver=jedis: expected one of ioredis, node-redis/,
    );
    assertOneLine(
      () => store({ 'redis.autopipelining': 'yes' }),
      SettingError,
      /^redis\.autopipelining=yes: expected true or false/,
    );
    assertOneLine(() => store({ 'redis.connections': '0' }), SettingError, /^redis\.connections=0: /);
    assertOneLine(() => store({ 'redis.connections': 'two' }), SettingError, /^redis\.connections=two: /);
    assertOneLine(() => store({ 'redis.connections': '65' }), SettingError, /^redis\.connections=65: /);
    assertOneLine(() => store({ 'redis.commandtimeout': '0' }), SettingError, /^redis\.commandtimeout=0: /);
  });

  it('redis.wait is replicas,timeoutMs, both at least 1', () => {
    assert.deepEqual(redisConfig(URL, { 'redis.wait': '1,100' }).wait, { replicas: 1, timeoutMs: 100 });
    assert.equal(redisConfig(URL, {}).wait, undefined);
    assertOneLine(() => store({ 'redis.wait': '1' }), SettingError, /^redis\.wait=1: expected replicas,timeoutMs/);
    assertOneLine(
      () => store({ 'redis.wait': '0,100' }),
      SettingError,
      /^redis\.wait=0,100: expected replicas >= 1 and timeoutMs >= 1/,
    );
    assertOneLine(() => store({ 'redis.wait': '1,0' }), SettingError, /^redis\.wait=1,0: /);
  });

  it('auto-pipelining with node-redis is a SettingError (node-redis has no such switch)', () => {
    assertOneLine(
      () => store({ 'redis.driver': 'node-redis', 'redis.autopipelining': 'true' }),
      SettingError,
      /^redis\.autopipelining=true: applies to redis\.driver=ioredis only/,
    );
  });
});

describe('redis URL', () => {
  const badUrls: [string, RegExp][] = [
    ['http://admin:s3cret@127.0.0.1:6379', /scheme "http:" is not redis: or rediss:/],
    ['admin:s3cret@127.0.0.1:6379', /scheme "admin:" is not redis: or rediss:/],
    ['redis://admin:s3cret@127.0.0.1:99999', /not a valid URL/],
    ['redis://admin:s3cret@/0', /not a valid URL/],
    ['redis://:s3cret@127.0.0.1:6379/users', /database "users" is not a whole number/],
    ['redis://:s3cret@127.0.0.1:6379/1/2', /database "1\/2" is not a whole number/],
    ['redis://admin:s3cret@127.0.0.1:6379/0?family=6', /parameters "\?family=6" are not read/],
  ];
  for (const [url, problem] of badUrls) {
    it(url.replace('s3cret', '***'), () => {
      const message = assertOneLine(() => store({}, url), RedisUrlError, problem);
      assert.doesNotMatch(message, /s3cret/);
      assert.match(message, /:\*\*\*@/, 'names the URL with its password masked');
      assert.match(message, /expected redis:\/\/\[user:password@\]host\[:port\]\[\/database\]/);
    });
  }

  it('a URL without a host is a RedisUrlError', () => {
    assertOneLine(() => store({}, 'redis:///0'), RedisUrlError, /^redis URL redis:\/\/\/0: no host; expected /);
  });

  it('accepts the documented shapes', () => {
    assert.deepEqual(pick(parseRedisUrl('rediss://app:pw@cache.example.com:6380/2')), {
      host: 'cache.example.com',
      port: 6380,
      database: 2,
      tls: true,
    });
    assert.deepEqual(pick(parseRedisUrl('redis://[::1]')), { host: '[::1]', port: 6379, database: 0, tls: false });
    assert.deepEqual(pick(parseRedisUrl('redis://localhost/')), {
      host: 'localhost',
      port: 6379,
      database: 0,
      tls: false,
    });
  });

  it('a seed list names every node of a cluster, each without a port on 6379, with one login and scheme', () => {
    const url = parseRedisUrl('rediss://app:p%40ss@10.0.0.1:7000,10.0.0.2,[::1]:7002');
    assert.deepEqual(url.nodes, [
      { host: '10.0.0.1', port: 7000 },
      { host: '10.0.0.2', port: 6379 },
      { host: '[::1]', port: 7002 },
    ]);
    assert.deepEqual(
      { host: url.host, port: url.port, tls: url.tls, username: url.username, password: url.password },
      { host: '10.0.0.1', port: 7000, tls: true, username: 'app', password: 'p@ss' },
    );
    assert.equal(nodeUrl(url, url.nodes[2]!), 'rediss://app:p%40ss@[::1]:7002');
    assert.equal(url.masked, 'rediss://app:***@10.0.0.1:7000,10.0.0.2,[::1]:7002');
  });

  it('a bad seed list is a RedisUrlError naming the entry', () => {
    assertOneLine(() => store({}, 'redis://a:1,,b:2'), RedisUrlError, /an empty entry in its node list/);
    assertOneLine(() => store({}, 'redis://a:1,b:http'), RedisUrlError, /"b:http" is not host or host:port/);
    assertOneLine(
      () => store({}, 'redis://a:1,b:2/3'),
      RedisUrlError,
      /database 3 with several nodes: a Redis Cluster has only database 0/,
    );
  });

  it('masks the password, also in text that is not a URL', () => {
    assert.equal(maskUrl('redis://app:pw@host:6379/1'), 'redis://app:***@host:6379/1');
    assert.equal(maskUrl('redis://:pw@host'), 'redis://:***@host');
    assert.equal(maskUrl('redis://app:p@ss/word@host'), 'redis://app:***@host');
    assert.equal(maskUrl('app:pw@host'), 'app:***@host');
    assert.equal(maskUrl('redis://app@host'), 'redis://app@host', 'a user name alone is not a secret');
    assert.equal(maskUrl('redis://host:6379'), 'redis://host:6379');
    assert.equal(parseRedisUrl('redis://app:pw@host').masked, 'redis://app:***@host');
  });
});

function pick(url: ReturnType<typeof parseRedisUrl>) {
  return { host: url.host, port: url.port, database: url.database, tls: url.tls };
}

describe('redis cluster topology', () => {
  it('reads cluster_enabled from INFO cluster', () => {
    assert.equal(clusterEnabled('# Cluster\r\ncluster_enabled:1\r\n'), true);
    assert.equal(clusterEnabled('# Cluster\r\ncluster_enabled:0\r\n'), false);
  });

  it('names the masters serving slots, their replicas and slots, and the failing nodes, from CLUSTER NODES', () => {
    const text = [
      'a1 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460',
      'b2 127.0.0.1:7001@17001 master - 0 0 2 connected 5461-10922 [10923->-c3]',
      'c3 127.0.0.1:7002@17002,host3 master - 0 0 3 connected 10923-16383',
      'd4 127.0.0.1:7003@17003 slave a1 0 0 1 connected',
      'e5 127.0.0.1:7004@17004 master,fail - 0 0 4 disconnected',
      'f6 127.0.0.1:7005@17005 slave c3 0 0 3 connected',
    ].join('\n');
    const nodes = parseClusterNodes(text);
    assert.equal(nodes[2]!.address, '127.0.0.1:7002');
    assert.deepEqual(clusterShape(nodes), {
      nodes: 6,
      masters: 3,
      replicas: 2,
      slotsPerMaster: [5461, 5462, 5461],
      replicasPerMaster: [1, 0, 1],
      failing: 1,
    });
  });
});

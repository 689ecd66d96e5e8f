import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { localTarget } from '../../src/local/targets.ts';
import { createStore, type RedisStore } from '../../src/stores/redis/index.ts';
import { UnreachableError, type Store } from '../../src/stores/store.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';
import { describeStoreContract } from './store-contract.ts';

const DRIVERS = ['ioredis', 'node-redis'] as const;

// The same contract on both clients: node-redis (the default) and ioredis.
for (const driver of DRIVERS) {
  describeStoreContract({
    store: 'redis',
    unreachableUrl: 'redis://127.0.0.1:1',
    updateDetectsMissing: false,
    deleteDetectsMissing: true,
    settings: { 'redis.driver': driver },
    extra: (get: () => Store) => {
      it('reports memory, record count and the client it used', async () => {
        const stats = await get().stats();
        assert.ok((stats.memoryBytes ?? 0) > 0);
        assert.ok((stats.recordCount ?? -1) >= 0);
        assert.match(stats.driver, driver === 'ioredis' ? /^ioredis / : /^@redis\/client /);
      });
    },
  });
}

// And over several connections a process (redis.connections), each call on the next in turn.
describeStoreContract({
  store: 'redis',
  unreachableUrl: 'redis://127.0.0.1:1',
  updateDetectsMissing: false,
  deleteDetectsMissing: true,
  settings: { 'redis.connections': '3' },
});

for (const driver of DRIVERS) {
  describe(`redis connection and handle (${driver})`, { timeout: 60_000 }, () => {
    let url: string;
    const open: RedisStore[] = [];
    const store = (at: string, settings: Record<string, string> = {}) => {
      const s = createStore({ url: at, settings: { 'redis.driver': driver, ...settings }, concurrency: 2 });
      open.push(s);
      return s;
    };
    before(async () => {
      url = (await (await localTarget('redis')).start(() => {})).url;
    });
    after(async () => {
      for (const s of open) await s.close();
    });

    it('an unreachable server is an UnreachableError saying what to check, with the password masked', async () => {
      await assert.rejects(store('redis://app:s3cret@127.0.0.1:1').connect(), (error: unknown) => {
        assert.ok(error instanceof UnreachableError);
        assert.match(
          error.message,
          /^cannot reach redis at redis:\/\/app:\*\*\*@127\.0\.0\.1:1: nothing listens on 127\.0\.0\.1:1 \(.*ECONNREFUSED.*\); start Redis there/,
        );
        assert.doesNotMatch(error.message, /s3cret/);
        return true;
      });
    });

    it('a database the server does not have is an UnreachableError naming it (not a silent database 0)', async () => {
      await assert.rejects(store(`${url}/9999`).connect(), (error: unknown) => {
        assert.ok(error instanceof UnreachableError);
        assert.match(error.message, /database 9999 does not exist on this server \(ERR DB index is out of range\)/);
        return true;
      });
    });

    it('redis.connections=3: three connections, each call on the next in turn', async () => {
      const s = store(url, { 'redis.connections': '3' });
      await s.connect();
      // CLIENT ID names the connection a command came on.
      const ids: unknown[] = [];
      for (let i = 0; i < 6; i++) ids.push(await s.handle.call(['CLIENT', 'ID']));
      assert.equal(new Set(ids).size, 3, `connections used: ${ids.join(', ')}`);
      assert.deepEqual(ids.slice(3), ids.slice(0, 3), 'in turn');
    });

    it('redis.connections=2 on an unreachable server: one UnreachableError, nothing left open', async () => {
      await assert.rejects(store('redis://127.0.0.1:1', { 'redis.connections': '2' }).connect(), UnreachableError);
    });

    it("writes go to the URL's database", async () => {
      const inDb3 = store(`${url}/3`);
      const inDb0 = store(url);
      await inDb3.connect();
      await inDb0.connect();
      const table = `dbtest_${driver}`;
      await inDb3.insert(table, 'k1', { field0: 'v' });
      assert.deepEqual(await inDb3.read(table, 'k1', null), { field0: 'v' });
      assert.equal(await inDb0.read(table, 'k1', null), null);
      await inDb3.drop({ table, fieldNames: [] });
      assert.equal(await inDb3.read(table, 'k1', null), null);
    });

    it("the handle's key walk finds each matching key once, and unlinkMatching removes only those", async () => {
      const s = store(url);
      await s.connect();
      const prefix = `handletest_${driver}`;
      const keys = Array.from({ length: 2500 }, (_, i) => `${prefix}:${i}`);
      await s.handle.pipeline([...keys.map((k) => ['SET', k, '1']), ['SET', `${prefix}#other`, '1']]);
      const seen: string[] = [];
      for await (const batch of s.handle.scanKeys(`${prefix}:*`, { distinct: true })) seen.push(...batch);
      assert.deepEqual(seen.sort(), [...keys].sort());
      await s.handle.unlinkMatching(`${prefix}:*`);
      assert.equal(await s.handle.call(['EXISTS', ...keys.slice(0, 10)]), 0);
      assert.equal(await s.handle.call(['GET', `${prefix}#other`]), '1');
      await s.handle.call(['UNLINK', `${prefix}#other`]);
    });
  });
}

describe('redis settings and URL through the CLI', { timeout: 120_000 }, () => {
  it('an unknown redis.* setting: exit 2, one line with the did-you-mean, no stack trace', () => {
    const r = runDocbench([
      'run',
      '--store',
      'redis',
      '-P',
      'workloada',
      '-p',
      'redis.nosuch=1',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(
      r,
      /unknown setting redis\.nosuch.*; redis understands redis\.driver, redis\.autopipelining, redis\.connections/,
    );
    const typo = runDocbench([
      'run',
      '--store',
      'redis',
      '-P',
      'workloada',
      '-p',
      'redis.drivr=node-redis',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(typo, /unknown setting redis\.drivr \(did you mean "redis\.driver"\?\)/);
  });

  it('a bad --url: exit 2, one line naming it with the password masked', () => {
    const r = runDocbench([
      'run',
      '--store',
      'redis',
      '--url',
      'redis://app:s3cret@127.0.0.1:6379/users',
      '-P',
      'workloada',
      '-p',
      'operationcount=1',
    ]);
    assertUserError(
      r,
      /redis URL redis:\/\/app:\*\*\*@127\.0\.0\.1:6379\/users: database "users" is not a whole number/,
    );
    assert.doesNotMatch(r.stderr, /s3cret/);
  });
});

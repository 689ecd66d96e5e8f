import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Store } from '../../src/stores/store.ts';
import { describeStoreContract } from './store-contract.ts';

// The same contract on both clients: ioredis (the default) and node-redis.
for (const driver of ['ioredis', 'node-redis']) {
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

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { describeStoreContract } from './store-contract.ts';

describeStoreContract({
  store: 'redis',
  unreachableUrl: 'redis://127.0.0.1:1',
  updateDetectsMissing: false,
  deleteDetectsMissing: true,
  extra: (get) => {
    it('reports memory and record count from INFO', async () => {
      const stats = await get().stats();
      assert.ok((stats.memoryBytes ?? 0) > 0);
      assert.ok((stats.recordCount ?? -1) >= 0);
    });
  },
});

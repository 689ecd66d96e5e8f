/**
 * Sign-ups across the worker threads of a ProcessPool (scenarios/ecommerce/shared-signups.ts):
 * whatever mix of sent, acknowledged, failed and still-unsent sign-ups the shared memory holds,
 * every thread's views and counts say what the main thread's SignupLedger says for the same
 * events, for every key a query checks by.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { customerCore } from '../../scenarios/ecommerce/generator.ts';
import { customerId, type Dataset } from '../../scenarios/ecommerce/model.ts';
import { handOut, newSignupState, SharedSignups } from '../../scenarios/ecommerce/shared-signups.ts';
import { SignupLedger, signupKeys, type SignupView } from '../../scenarios/ecommerce/signups.ts';
import { Random } from '../../src/workload/random.ts';

const DATA: Dataset = { seed: 11, customers: 200, ordersPerCustomer: 1, customersPerZip: 5 };

function sameView(a: SignupView, b: SignupView, what: string, ids: readonly string[]): void {
  assert.deepEqual([...a.acknowledged], [...b.acknowledged], `${what}: acknowledged`);
  for (const id of ids) assert.equal(a.possible(id), b.possible(id), `${what}: possible(${id})`);
}

describe('ecommerce sign-ups in shared memory', () => {
  it('agree with the main thread ledger on every view and count, while sign-ups are in flight', async () => {
    const allocator = new SignupLedger(DATA, async () => {});
    const reference = new SignupLedger(DATA, async () => {});
    const state = newSignupState(DATA.customers, 1000);
    const allocate = async () => handOut(state, await allocator.allocate());
    // Two threads over one buffer: one writes, the other only reads what the first did.
    const writer = new SharedSignups(state, DATA, allocate);
    const reader = new SharedSignups(state, DATA, allocate);
    const random = new Random(5);
    const indexes: number[] = [];
    for (let round = 0; round < 6; round++) {
      for (let n = 0; n < 40; n++) {
        const index = await writer.allocate();
        indexes.push(index);
        const fate = random.nextInt(10);
        if (fate === 0) continue; // handed out, not sent yet
        writer.sent(index);
        reference.sent(index);
        if (fate <= 6) {
          writer.acknowledged(index);
          reference.acknowledged(index);
        } else if (fate === 7) writer.failed(index); // the ledger has no "failed": sent, never acknowledged
      }
      const ids = [...indexes.map(customerId), customerId(0), customerId(DATA.customers + 5000)];
      for (const thread of [writer, reader]) {
        for (const index of indexes.slice(-25)) {
          for (const key of signupKeys(DATA, index)) {
            const got = thread.count(key, true);
            const want = reference.count(key, true);
            assert.equal(got.acknowledged, want.acknowledged, `round ${round} ${key}: acknowledged`);
            assert.equal(got.sent(), want.sent(), `round ${round} ${key}: sent`);
          }
          const country = customerCore(DATA, index).countryIndex;
          sameView(thread.view(country, true), reference.view(country, true), `round ${round} country ${country}`, ids);
        }
        const even = (i: number) => i % 2 === 0;
        sameView(thread.viewWhere(even, true), reference.viewWhere(even, true), `round ${round} even indexes`, ids);
      }
      // Settle some of those in flight, as their answers come back.
      for (const index of indexes) {
        const slot = index - DATA.customers;
        if (new Uint8Array(state.buffer, 4)[slot] === 1 && random.nextInt(2) === 0) {
          writer.acknowledged(index);
          reference.acknowledged(index);
        }
      }
    }
  });

  it('refuses more sign-ups than a count-bound run can make', () => {
    const state = newSignupState(100, 3);
    handOut(state, 102);
    assert.throws(() => handOut(state, 103), /more than 3 sign-ups in one run/);
  });
});

/**
 * The e-commerce scenario read side by side with the studies (Altoros 2022, YCSB-JSON), without
 * a server: the JOIN's fan-out at the study's selectivity whatever the size, one order per
 * customer by default, the study's unordered pagination checked as a set, YCSB-JSON's other
 * queries answered by the oracle as a brute-force scan of the generated documents answers them,
 * read-backs that catch a store acknowledging writes it did not make, the oracle's memory at a
 * million customers, correlated and independent parameters, and YCSB-JSON's document shapes.
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Random } from '../../src/workload/random.ts';
import { ECOMMERCE_DEFAULTS } from '../../scenarios/ecommerce/workload-names.ts';
import type { EcommerceDialect } from '../../scenarios/ecommerce/dialect.ts';
import { deviceOwner } from '../../scenarios/ecommerce/devices.ts';
import { customerCore, generateCustomer, generateOrder } from '../../scenarios/ecommerce/generator.ts';
import { COUNTRIES, DEFAULT_CUSTOMERS_PER_ZIP, zipPool } from '../../scenarios/ecommerce/geography.ts';
import { customerId, type Customer, type Dataset } from '../../scenarios/ecommerce/model.ts';
import { EcommerceOracle } from '../../scenarios/ecommerce/oracle.ts';
import { ParameterChooser, type QueryKind, type QueryParams } from '../../scenarios/ecommerce/queries.ts';
import { checkQuery } from '../../scenarios/ecommerce/query-checks.ts';
import { runWorkload } from '../../scenarios/ecommerce/run.ts';
import { resolveSettings } from '../../scenarios/ecommerce/session.ts';
import { parseSettings } from '../../scenarios/ecommerce/settings.ts';
import { NO_SIGNUP_COUNT, NO_SIGNUPS, SignupLedger } from '../../scenarios/ecommerce/signups.ts';
import { WORKLOADS } from '../../scenarios/ecommerce/workloads.ts';

const CHOOSER = { maxoffset: 5, minlimit: 1, maxlimit: 100, requestdistribution: 'uniform' as const };

describe("ecommerce: the JOIN at the study's selectivity", () => {
  it("keeps about 250 customers per zip in every country as the dataset grows to the studies' sizes", () => {
    for (const customers of [1_000_000, 5_000_000, 25_000_000, 100_000_000]) {
      const pool = zipPool(customers);
      const total = COUNTRIES.reduce((sum, c) => sum + c.weight, 0);
      assert.ok(Math.abs(customers / pool.size - DEFAULT_CUSTOMERS_PER_ZIP) < 5, `${customers}: ${pool.size} zips`);
      COUNTRIES.forEach((country, k) => {
        const perZip = (customers * country.weight) / total / pool.countryZips(k);
        assert.ok(
          perZip > 225 && perZip < 275,
          `${customers} customers, ${country.name}: ${perZip.toFixed(0)} customers per zip`,
        );
      });
      // Codes are distinct and map back to their slot.
      for (const slot of [0, 1, pool.size - 1]) assert.equal(pool.slotOf(pool.zipOf(slot)), slot);
    }
  });

  it('draws zips uniformly within a country: no zip is far busier than the average, at any size', () => {
    for (const customers of [20_000, 120_000]) {
      const oracle = new EcommerceOracle({ seed: 3, customers, ordersPerCustomer: 1 });
      const counts = [...oracle.tables.zipCount];
      const mean = customers / counts.length;
      assert.ok(Math.abs(mean - DEFAULT_CUSTOMERS_PER_ZIP) < 25, `${customers}: mean ${mean}`);
      assert.ok(
        Math.max(...counts) < 1.5 * DEFAULT_CUSTOMERS_PER_ZIP,
        `${customers}: busiest zip holds ${Math.max(...counts)}`,
      );
    }
  });

  it("seeds the index the page's order needs: (country, id) for the ordered page, country alone (Altoros 2022's) for the unordered one", () => {
    assert.equal(parseSettings([]).paginationindex, 'country-id');
    assert.equal(parseSettings(['ordered=false']).paginationindex, 'country');
    assert.equal(parseSettings(['ordered=false', 'paginationindex=country-id']).paginationindex, 'country-id');
    assert.throws(() => parseSettings(['paginationindex=zip']), /-p paginationindex=zip/);
  });

  it('seeds one order per customer unless told otherwise, as Altoros 2022 did', () => {
    assert.equal(ECOMMERCE_DEFAULTS.ordersPerCustomer, 1);
    assert.equal(parseSettings([]).orderspercustomer, 1);
    assert.equal(parseSettings([]).customersperzip, DEFAULT_CUSTOMERS_PER_ZIP);
    const pool = zipPool(10_000, 40);
    assert.equal(pool.size >= 10_000 / 40, true, '-p customersperzip changes the pool');
  });
});

// A small dataset with small zips, so every query kind has several matches.
const SMALL: Dataset = { seed: 11, customers: 900, ordersPerCustomer: 2, customersPerZip: 15 };
const docs = Array.from({ length: SMALL.customers }, (_, i) => generateCustomer(SMALL, i));
const oracle = new EcommerceOracle(SMALL);

/** The brute-force answer of a query from the generated documents: matching ids ascending (or report pairs). */
function bruteForce(kind: QueryKind, params: QueryParams[QueryKind]): string[] {
  const p = params as unknown as Record<string, never>;
  const match: (c: Customer) => boolean = {
    pagination: (c: Customer) => c.address.country === p.country,
    'soe-search': (c: Customer) =>
      c.address.country === p.country && c.age_group === p.age_group && c.dob.startsWith(`${p.year}-`),
    'soe-page': (c: Customer) => c.address.zip === p.zip,
    'soe-nestscan': (c: Customer) => c.address.prev_address.zip === p.zip,
    'soe-arrayscan': (c: Customer) => c.devices.includes(p.device),
    'soe-arraydeepscan': (c: Customer) =>
      c.visited_places.some((v) => v.country === p.country && v.cities.includes(p.city)),
    'soe-report': (c: Customer) => c.address.zip === p.zip,
  }[kind as 'pagination'];
  const matching = docs.filter(match);
  if (kind === 'soe-report') return matching.flatMap((c) => c.order_list.map((o) => `${c._id}|${o}`));
  return matching.map((c) => c._id);
}

const asRows = (pairs: string[]) =>
  pairs.map((pair) => ({ customer: pair.split('|')[0]!, order: pair.split('|')[1]! }));

describe("ecommerce oracle: the study's unordered pagination and YCSB-JSON's other queries", () => {
  const random = new Random(5);
  const shuffle = <T>(values: T[]): T[] => {
    const out = [...values];
    for (let i = out.length - 1; i > 0; i--) {
      const j = random.nextInt(i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };

  it('accepts an unordered page in any order and rejects a duplicate, a stranger and a wrong count', () => {
    const chooser = new ParameterChooser(SMALL, new Random(2), { ...CHOOSER, ordered: false });
    for (let n = 0; n < 200; n++) {
      const params = chooser.page();
      assert.equal(params.ordered, false);
      const all = bruteForce('pagination', params);
      const size = Math.min(params.limit, Math.max(0, all.length - params.offset));
      const page = shuffle(all).slice(0, size);
      assert.equal(oracle.checkPage(params, page, NO_SIGNUP_COUNT), undefined, JSON.stringify(params));
      if (size === 0) continue;
      assert.match(oracle.checkPage(params, page.slice(1), NO_SIGNUP_COUNT) ?? '', /expected \d+ ids/);
      if (size > 1)
        assert.match(
          oracle.checkPage(params, [page[0]!, page[0]!, ...page.slice(2)], NO_SIGNUP_COUNT) ?? '',
          /more than once/,
        );
      const stranger = docs.find((c) => c.address.country !== params.country)!._id;
      assert.match(
        oracle.checkPage(params, [stranger, ...page.slice(1)], NO_SIGNUP_COUNT) ?? '',
        /is not a customer of/,
      );
    }
  });

  for (const kind of [
    'soe-search',
    'soe-page',
    'soe-nestscan',
    'soe-arrayscan',
    'soe-arraydeepscan',
    'soe-report',
  ] as const) {
    it(`${kind}: the oracle agrees with a brute-force scan of the documents, and names a wrong answer`, () => {
      const chooser = new ParameterChooser(SMALL, new Random(kind.length), CHOOSER);
      const ordered = kind === 'soe-arrayscan' || kind === 'soe-arraydeepscan';
      let nonEmpty = 0;
      for (let n = 0; n < 150; n++) {
        const params: QueryParams[QueryKind] = chooser.draw(kind);
        const all = bruteForce(kind, params);
        const p = params as { offset?: number; limit?: number };
        const offset = p.offset ?? 0;
        const size = kind === 'soe-report' ? all.length : Math.min(p.limit!, Math.max(0, all.length - offset));
        const picked =
          ordered || kind === 'soe-report' ? all.slice(offset, offset + size) : shuffle(all).slice(0, size);
        const answer = kind === 'soe-report' ? asRows(shuffle(picked)) : picked;
        const snapshot = ordered ? NO_SIGNUPS : NO_SIGNUP_COUNT;
        assert.equal(
          checkQuery(kind, oracle, params as never, answer as never, snapshot),
          undefined,
          `${JSON.stringify(params)}: ${all.length} matches`,
        );
        if (size === 0) continue;
        nonEmpty++;
        const fewer = kind === 'soe-report' ? asRows(picked.slice(1)) : picked.slice(1);
        assert.notEqual(checkQuery(kind, oracle, params as never, fewer as never, snapshot), undefined, 'one missing');
        const stranger =
          kind === 'soe-report'
            ? [{ customer: customerId(0), order: 'order:0000000000:000' }]
            : [customerId(SMALL.customers - 1)];
        if (
          !all.some((x) => x.startsWith(customerId(SMALL.customers - 1))) &&
          !all.includes(`${customerId(0)}|order:0000000000:000`)
        ) {
          assert.notEqual(
            checkQuery(kind, oracle, params as never, [...stranger, ...fewer] as never, snapshot),
            undefined,
            'a stranger in place of a match',
          );
        }
        if (ordered && picked.length > 1)
          assert.match(
            checkQuery(kind, oracle, params as never, [...picked].reverse() as never, snapshot) ?? '',
            /position 0/,
          );
      }
      // A search's (country, age) holds a few customers at this size, often fewer than its OFFSET.
      assert.ok(
        nonEmpty > (kind === 'soe-search' ? 40 : 100),
        `${kind}: ${nonEmpty} of 150 correlated draws have an answer`,
      );
    });
  }

  it("independent parameters (YCSB-JSON's) come from several customers: some searches match nobody, and the oracle says so", () => {
    const chooser = new ParameterChooser(SMALL, new Random(9), { ...CHOOSER, parameters: 'independent' });
    let empty = 0;
    for (let n = 0; n < 300; n++) {
      const params = chooser.search();
      const all = bruteForce('soe-search', params);
      if (all.length === 0) empty++;
      assert.equal(
        checkQuery(
          'soe-search',
          oracle,
          params,
          all.slice(params.offset, params.offset + params.limit),
          NO_SIGNUP_COUNT,
        ),
        undefined,
      );
    }
    assert.ok(empty > 100, `${empty} of 300 independent searches match nobody`);
    const correlated = new ParameterChooser(SMALL, new Random(9), CHOOSER);
    for (let n = 0; n < 300; n++)
      assert.equal(oracle.join(correlated.join()).length, 1, 'a correlated JOIN always has its group');
  });
});

describe('ecommerce read-backs: a store acknowledging writes it did not make fails the run', () => {
  const DATA: Dataset = { seed: 4, customers: 300, ordersPerCustomer: 1 };
  const truth = new EcommerceOracle(DATA);

  /** An in-memory store with the key-value operations only; `lose` drops the kind of write asked. */
  function memoryDialect(lose: 'update' | 'insert' | 'none'): EcommerceDialect {
    const stored = new Map<string, Customer>();
    const read = (id: string) =>
      stored.get(id) ?? (Number(id.slice(9)) < DATA.customers ? generateCustomer(DATA, Number(id.slice(9))) : null);
    return {
      readsOwnWrites: true,
      readCustomer: async (id: string) => read(id),
      updateCustomer: async (id: string, patch: object) => {
        const doc = read(id);
        if (doc === null) return false;
        if (lose !== 'update') stored.set(id, { ...doc, ...patch });
        return true;
      },
      insertCustomer: async (c: Customer) => {
        if (lose !== 'insert') stored.set(c._id, c);
      },
      writeManifest: async () => {},
    } as unknown as EcommerceDialect;
  }

  async function run(lose: 'update' | 'insert' | 'none') {
    const dialect = memoryDialect(lose);
    const settings = parseSettings(['operationcount=200', 'threadcount=4', 'readbacksample=1', 'seed=3']);
    return runWorkload({
      dialect,
      store: 'memory',
      dataset: DATA,
      oracle: truth,
      signups: new SignupLedger(DATA, async () => {}),
      proportions: [
        ['customer-update', 0.5],
        ['customer-insert', 0.5],
      ],
      variants: {},
      settings,
      status: false,
      label: '[memory]',
    });
  }

  it('a store that keeps every write passes, every write read back', async () => {
    const outcome = await run('none');
    assert.equal(outcome.mismatch, undefined, outcome.mismatch);
    assert.equal(outcome.outcome.measurements.statusCounts('READBACK').get('OK'), 200);
  });

  it('an update acknowledged but not made is caught by its read-back', async () => {
    const outcome = await run('update');
    assert.match(outcome.mismatch ?? '', /memory CUSTOMER-UPDATE .*updated fields: expected/);
  });

  it('a sign-up acknowledged but not stored is caught by its read-back', async () => {
    const outcome = await run('insert');
    assert.match(outcome.mismatch ?? '', /memory CUSTOMER-INSERT .*got nothing/);
  });
});

describe('ecommerce oracle memory', () => {
  it('keeps a million customers in typed arrays: well within 2 GB at 25 million', () => {
    setFlagsFromString('--expose_gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage();
    const big = new EcommerceOracle({ seed: 1, customers: 1_000_000, ordersPerCustomer: 1 });
    gc();
    const after = process.memoryUsage();
    const grown = after.heapUsed + after.arrayBuffers - (before.heapUsed + before.arrayBuffers);
    const perMillion = big.tables.bytes();
    assert.ok(perMillion < 20e6, `typed arrays: ${(perMillion / 1e6).toFixed(1)} MB per million customers`);
    // 2 GB / 25 = 80 MB per million customers, everything counted.
    assert.ok(grown < 80e6, `the oracle of 1M customers holds ${(grown / 1e6).toFixed(1)} MB`);
    assert.equal(big.countryCount(COUNTRIES[0]!.name) > 250_000, true);
  });
});

describe('ecommerce workloads and shapes as YCSB-JSON has them', () => {
  it('the mix picks the customers it updates zipfian (workloadsg), unless told otherwise', () => {
    assert.equal(resolveSettings(WORKLOADS.mix!, parseSettings([])).requestdistribution, 'zipfian');
    assert.equal(
      resolveSettings(WORKLOADS.mix!, parseSettings(['requestdistribution=uniform'])).requestdistribution,
      'uniform',
    );
    assert.equal(resolveSettings(WORKLOADS.pagination!, parseSettings([])).requestdistribution, 'uniform');
  });

  it('doc_id is a number, linked_devices a list of lists, devices unique with a known owner', () => {
    const seen = new Set<string>();
    for (const [i, c] of docs.slice(0, 200).entries()) {
      assert.equal(c.doc_id, i);
      assert.ok(c.linked_devices.length >= 3 && c.linked_devices.every((g) => Array.isArray(g) && g.length >= 2));
      for (const device of [...c.devices, ...c.linked_devices.flat()]) {
        assert.ok(!seen.has(device), `device ${device} twice`);
        seen.add(device);
        assert.equal(deviceOwner(SMALL.seed, device)?.index, i);
      }
      assert.equal(customerCore(SMALL, i).age, c.age_by_group);
    }
    assert.equal(typeof generateOrder(SMALL, 0, 0).month, 'number', 'order month stays a number (see the README)');
  });
});

/**
 * The e-commerce scenario's pure parts: the generator, the oracle (checked against a brute-force
 * recomputation from the generated documents), the parameter chooser, the settings, and the
 * query text each store sends (SQL++, the $lookup pipeline, the CouchDB view's map function).
 */
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { settingsPrefixes } from '../../src/stores/stores.ts';
import { Random } from '../../src/workload/random.ts';
import { ECOMMERCE_DIALECTS } from '../../scenarios/ecommerce/dialects.ts';
import { customerCore, generateCustomer, generateOrder } from '../../scenarios/ecommerce/generator.ts';
import { COUNTRIES } from '../../scenarios/ecommerce/geography.ts';
import { customerId, customerIndexOf, orderId, orderIndexOf, type Dataset } from '../../scenarios/ecommerce/model.ts';
import { EcommerceOracle } from '../../scenarios/ecommerce/oracle.ts';
import { ParameterChooser } from '../../scenarios/ecommerce/queries.ts';
import { describeNotOk } from '../../scenarios/ecommerce/report.ts';
import { parseSettings } from '../../scenarios/ecommerce/settings.ts';
import { WORKLOADS, effectiveProportions } from '../../scenarios/ecommerce/workloads.ts';
import { indexStatements, joinStatement, paginationStatement } from '../../scenarios/ecommerce/stores/couchbase.ts';
import { ORDERS_BY_ZIP_MAP } from '../../scenarios/ecommerce/stores/couchdb.ts';
import { lookupPipeline } from '../../scenarios/ecommerce/stores/mongodb.ts';

const DATASET: Dataset = { seed: 7, customers: 400, ordersPerCustomer: 3 };
const customers = Array.from({ length: DATASET.customers }, (_, i) => generateCustomer(DATASET, i));
const orders = customers.flatMap((c, i) =>
  Array.from({ length: DATASET.ordersPerCustomer }, (_, j) => ({ customer: c, order: generateOrder(DATASET, i, j) })),
);
const oracle = new EcommerceOracle(DATASET);

describe('ecommerce ids', () => {
  it('zero-pads ids so string order is index order', () => {
    assert.equal(customerId(42), 'customer:0000000042');
    assert.equal(orderId(42, 3), 'order:0000000042:003');
    const ids = [9, 10, 100, 1_000_000].map(customerId);
    assert.deepEqual([...ids].sort(), ids);
  });

  it('parses a customer id back to its index and rejects anything else', () => {
    assert.equal(customerIndexOf(customerId(123_456)), 123_456);
    for (const bad of ['customer:12', 'order:0000000001:000', 'customer:00000000x1', '', 'customer:0000000001 '])
      assert.equal(customerIndexOf(bad), -1, bad);
  });

  it('parses an order id back to its customer and order number', () => {
    assert.deepEqual(orderIndexOf(orderId(123_456, 7)), { customer: 123_456, order: 7 });
    for (const bad of ['order:12:001', customerId(3), 'order:0000000001-000', 'order:0000000001:0x0'])
      assert.equal(orderIndexOf(bad), undefined, bad);
  });
});

describe('ecommerce generator', () => {
  it('is a pure function of (seed, index)', () => {
    assert.deepEqual(generateCustomer(DATASET, 17), customers[17]);
    assert.deepEqual(generateOrder(DATASET, 17, 2), generateOrder({ ...DATASET }, 17, 2));
    assert.notDeepEqual(generateCustomer({ ...DATASET, seed: 8 }, 17), customers[17]);
  });

  it('builds customers with the model fields, their own ids and order lists', () => {
    for (const [i, c] of customers.entries()) {
      assert.equal(c._id, customerId(i));
      assert.equal(c.address.country, customerCore(DATASET, i).country);
      assert.equal(c.address.zip, customerCore(DATASET, i).zip);
      assert.deepEqual(
        c.order_list,
        [0, 1, 2].map((j) => orderId(i, j)),
      );
    }
    for (const { customer, order } of orders) {
      assert.equal(order.customer_id, customer._id);
      assert.ok(order.month >= 1 && order.month <= 12, `month ${order.month}`);
      assert.ok(
        order.sale_price > 0 && order.sale_price <= order.list_price * order.quantity + 1e-9,
        `${order._id} sale_price ${order.sale_price}`,
      );
    }
  });

  it('makes customers of about 4 KB (Altoros 2022 §4.3.1)', () => {
    const mean = customers.reduce((s, c) => s + JSON.stringify(c).length, 0) / customers.length;
    assert.ok(mean > 3000 && mean < 5500, `mean customer size ${mean.toFixed(0)} B`);
  });

  it('spreads customers over a bounded set of countries with realistic skew', () => {
    const counts = new Map<string, number>();
    for (const c of customers) counts.set(c.address.country, (counts.get(c.address.country) ?? 0) + 1);
    assert.ok(counts.size > 5 && counts.size <= COUNTRIES.length, `${counts.size} countries`);
    const largest = Math.max(...counts.values());
    assert.ok(
      largest >= 20 && largest < DATASET.customers / 2,
      `largest country has ${largest} of ${DATASET.customers}`,
    );
  });
});

describe('ecommerce oracle', () => {
  const byCountry = (country: string) =>
    customers
      .filter((c) => c.address.country === country)
      .map((c) => c._id)
      .sort();

  it('pages agree with a brute-force filter, sort, skip and limit', () => {
    for (const country of new Set(customers.map((c) => c.address.country))) {
      const all = byCountry(country);
      assert.equal(oracle.countryCount(country), all.length);
      for (const [offset, limit] of [
        [0, 1],
        [0, 100],
        [5, 7],
        [all.length, 3],
        [all.length + 2, 5],
      ] as const) {
        assert.deepEqual(
          oracle.page({ country, offset, limit }),
          all.slice(offset, offset + limit),
          `${country} ${offset}/${limit}`,
        );
      }
    }
    assert.deepEqual(oracle.page({ country: 'Atlantis', offset: 0, limit: 10 }), []);
  });

  it('join sums agree with a brute-force join over the generated orders', () => {
    let checked = 0;
    for (const zip of new Set(customers.map((c) => c.address.zip))) {
      for (let month = 1; month <= 12; month++) {
        const matching = orders.filter(({ customer, order }) => customer.address.zip === zip && order.month === month);
        const expected =
          matching.length === 0
            ? []
            : [
                {
                  month,
                  zip,
                  sale_price: Math.round(matching.reduce((s, { order }) => s + order.sale_price * 100, 0)) / 100,
                },
              ];
        assert.deepEqual(oracle.join({ zip, month }), expected, `${zip} ${month}`);
        checked += matching.length > 0 ? 1 : 0;
      }
    }
    assert.ok(checked > 50, `${checked} non-empty groups`);
  });

  it('accepts the right page and names what is wrong with a wrong one', () => {
    const country = customers[0]!.address.country;
    const params = { country, offset: 1, limit: 4 };
    const right = oracle.page(params);
    assert.equal(oracle.checkPage(params, right), undefined);
    assert.match(oracle.checkPage(params, right.slice(0, 3)) ?? '', /position 3 is missing/);
    assert.match(oracle.checkPage(params, [...right].reverse()) ?? '', /position 0/);
    assert.match(oracle.checkPage(params, [...right, customerId(DATASET.customers + 1)]) ?? '', /5 ids for LIMIT 4/);
    const other = customers.find((c) => c.address.country !== country)!;
    assert.match(
      oracle.checkPage({ country, offset: 0, limit: 100_000 }, [...byCountry(country), other._id]) ?? '',
      /is not a customer of/,
    );
  });

  it('accepts sign-ups after the seeded customers only when they were sent, and misses none a store must show', () => {
    const signup = Array.from({ length: 50 }, (_, k) => DATASET.customers + k).find(
      (i) => customerCore(DATASET, i).country === customers[0]!.address.country,
    )!;
    const country = customerCore(DATASET, signup).country;
    const all = byCountry(country);
    const params = { country, offset: 0, limit: all.length + 10 };
    const sent = {
      acknowledged: [customerId(signup)],
      possible: (id: string) => id === customerId(signup),
      readsOwnWrites: true,
    };
    assert.equal(oracle.checkPage(params, [...all, customerId(signup)], sent), undefined);
    assert.match(oracle.checkPage(params, all, sent) ?? '', /acknowledged sign-up .* is missing/);
    assert.equal(
      oracle.checkPage(params, all, { ...sent, readsOwnWrites: false }),
      undefined,
      'an eventually consistent index may lag',
    );
    assert.match(
      oracle.checkPage(params, [...all, customerId(signup)]) ?? '',
      /is not a customer of/,
      'a sign-up nobody sent',
    );
  });

  it('checks JOIN rows to the cent, whatever order the store added in', () => {
    const { zip } = customers[3]!.address;
    const month = orders.find(({ customer }) => customer.address.zip === zip)!.order.month;
    const [row] = oracle.join({ zip, month });
    assert.ok(row);
    assert.equal(oracle.checkJoin({ zip, month }, [{ ...row, sale_price: row.sale_price + 1e-9 }]), undefined);
    assert.match(
      oracle.checkJoin({ zip, month }, [{ ...row, sale_price: row.sale_price + 0.01 }]) ?? '',
      /expected .* got/,
    );
    assert.match(oracle.checkJoin({ zip, month }, []) ?? '', /got no group/);
    assert.match(oracle.checkJoin({ zip, month }, [row, row]) ?? '', /expected/);
  });

  it('checks customers field by field, letting updatable fields change', () => {
    const c = customers[5]!;
    assert.equal(oracle.checkCustomer(5, c), undefined);
    assert.equal(oracle.checkCustomer(5, { ...c, linear_score: c.linear_score + 1, isActive: !c.isActive }), undefined);
    assert.match(oracle.checkCustomer(5, { ...c, isActive: 'yes' as unknown as boolean }) ?? '', /field isActive/);
    assert.match(oracle.checkCustomer(5, { ...c, address: { ...c.address, zip: '00000' } }) ?? '', /address\.zip/);
    assert.match(oracle.checkCustomer(5, null) ?? '', /got nothing/);
    assert.match(oracle.checkOrder(5, 1, { ...generateOrder(DATASET, 5, 1), month: 13 }) ?? '', /month/);
  });
});

describe('ecommerce parameter chooser', () => {
  const settings = { maxoffset: 5, minlimit: 1, maxlimit: 100, requestdistribution: 'uniform' as const };

  it('draws pages and joins from values that exist, within the configured ranges', () => {
    const chooser = new ParameterChooser(DATASET, new Random(3), settings);
    const countries = new Set(customers.map((c) => c.address.country));
    const offsets = new Set<number>();
    for (let k = 0; k < 2000; k++) {
      const page = chooser.page();
      assert.ok(countries.has(page.country), page.country);
      assert.ok(page.offset >= 0 && page.offset <= 5 && page.limit >= 1 && page.limit <= 100, JSON.stringify(page));
      offsets.add(page.offset);
      const join = chooser.join();
      assert.ok(oracle.join(join).length === 1, `JOIN ${join.zip} ${join.month} matches no order`);
    }
    assert.equal(offsets.size, 6, 'every offset 0–5 occurs');
  });

  it('gives the same sequence for the same seed, and another for another', () => {
    const draw = (seed: number) => {
      const chooser = new ParameterChooser(DATASET, new Random(seed), { ...settings, requestdistribution: 'zipfian' });
      return Array.from({ length: 20 }, () => [chooser.page(), chooser.customerIndex(), chooser.orderOf()]);
    };
    assert.deepEqual(draw(11), draw(11));
    assert.notDeepEqual(draw(11), draw(12));
  });

  it('keeps key choices among seeded customers and their orders', () => {
    const chooser = new ParameterChooser(DATASET, new Random(5), { ...settings, requestdistribution: 'zipfian' });
    for (let k = 0; k < 5000; k++) {
      const i = chooser.customerIndex();
      const { customer, order } = chooser.orderOf();
      assert.ok(
        i >= 0 && i < DATASET.customers && customer >= 0 && customer < DATASET.customers && order >= 0 && order < 3,
      );
    }
  });

  it('refuses a JOIN on a dataset without orders', () => {
    const chooser = new ParameterChooser({ ...DATASET, ordersPerCustomer: 0 }, new Random(1), settings);
    assert.throws(() => chooser.join(), /0 orders per customer/);
  });
});

describe('ecommerce settings and workloads', () => {
  it("has YCSB-JSON's defaults and mixes", () => {
    const s = parseSettings([]);
    assert.equal(s.maxoffset, 5);
    assert.equal(s.minlimit, 1);
    assert.equal(s.maxlimit, 100);
    assert.deepEqual(effectiveProportions(WORKLOADS.mix!, {}), [
      ['pagination', 0.9],
      ['customer-update', 0.05],
      ['customer-insert', 0.05],
    ]);
    assert.deepEqual(effectiveProportions(WORKLOADS.pagination!, { 'customer-read': 0.25 }), [
      ['pagination', 1],
      ['customer-read', 0.25],
    ]);
  });

  it('reads proportion overrides and passes store settings through', () => {
    const s = parseSettings([
      'customerreadproportion=0.5',
      'mongodb.writeConcern=majority',
      'variant=lookup, two-phase',
    ]);
    assert.equal(s.proportions['customer-read'], 0.5);
    assert.deepEqual(s.storeSettings, { 'mongodb.writeConcern': 'majority' });
    assert.deepEqual(s.variants, ['lookup', 'two-phase']);
  });

  it("passes every store's settings through, each prefix of the STORES table (hbase.* too)", () => {
    const assignments = ECOMMERCE_DIALECTS.stores.flatMap((store) => settingsPrefixes(store).map((p) => `${p}x=1`));
    assert.ok(assignments.includes('hbase.x=1'));
    const s = parseSettings(assignments);
    assert.deepEqual(
      Object.keys(s.storeSettings),
      assignments.map((a) => a.slice(0, -2)),
    );
  });

  it('names the key in every error', () => {
    assert.throws(() => parseSettings(['minlimit=50', 'maxlimit=10']), /minlimit=50 exceeds maxlimit=10/);
    assert.throws(() => parseSettings(['pagesize=10']), /-p pagesize: unknown ecommerce setting/);
    assert.throws(() => parseSettings(['requestdistribution=hotspot']), /-p requestdistribution=hotspot/);
    assert.throws(() => parseSettings(['maxoffset=-1']), /-p maxoffset=-1/);
    assert.throws(() => parseSettings(['customers']), /-p customers: expected key=value/);
  });

  it('summarises what did not succeed', () => {
    assert.equal(describeNotOk({ OK: 3, UNSUPPORTED: 300 }), '300 UNSUPPORTED');
    assert.equal(describeNotOk({ OK: 3 }), '0');
  });
});

describe('ecommerce store query text', () => {
  it('Couchbase pagination is Altoros 2022 §4.3.2 with a key order and parameters, not values', () => {
    const statement = paginationStatement('`b`.`s`.`customers`');
    assert.match(
      statement,
      /^SELECT RAW META\(c\)\.id FROM `b`\.`s`\.`customers` AS c WHERE c\.address\.country = \$1 ORDER BY META\(c\)\.id OFFSET \$2 LIMIT \$3$/,
    );
  });

  it('Couchbase JOIN comes as ANSI JOIN and as index join, grouped and ordered by the sum', () => {
    const ansi = joinStatement('ansi', 'C', 'O');
    const onKeys = joinStatement('on-keys', 'C', 'O');
    assert.match(ansi, /INNER JOIN O AS o ON META\(o\)\.id IN c\.order_list /);
    assert.match(onKeys, /INNER JOIN O AS o ON KEYS c\.order_list /);
    for (const s of [ansi, onKeys]) {
      assert.match(
        s,
        /WHERE c\.address\.zip = \$1 AND o\.month = \$2 GROUP BY o\.month, c\.address\.zip ORDER BY SUM\(o\.sale_price\)$/,
      );
      assert.match(s, /SUM\(o\.sale_price\) AS sale_price/);
    }
  });

  it('Couchbase indexes cover each query and are built deferred', () => {
    const { customers: c, orders: o } = indexStatements('C', 'O');
    assert.deepEqual(
      c.map((d) => d.name),
      [
        'ecommerce_country_id',
        'ecommerce_zip_orders',
        'ecommerce_search',
        'ecommerce_prev_zip',
        'ecommerce_devices',
        'ecommerce_visited',
      ],
    );
    assert.match(c[0]!.statement, /ON C\(address\.country, META\(\)\.id\)/);
    assert.match(o[0]!.statement, /ON O\(month, sale_price\)/);
    for (const d of [...c, ...o]) assert.match(d.statement, /IF NOT EXISTS .* WITH \{"defer_build": true\}$/);
    // Altoros 2022's own pagination index: address.country alone.
    const study = indexStatements('C', 'O', 'country').customers[0]!;
    assert.equal(study.name, 'ecommerce_country');
    assert.match(study.statement, /ON C\(address\.country\) WITH/);
  });

  it('the MongoDB $lookup pipeline filters by zip before the lookup and by month after it', () => {
    const pipeline = lookupPipeline({ zip: '10115', month: 4 });
    assert.deepEqual(
      pipeline.map((stage) => Object.keys(stage)[0]),
      ['$match', '$project', '$lookup', '$unwind', '$match', '$group', '$sort'],
    );
    assert.deepEqual(pipeline[0], { $match: { 'address.zip': '10115' } });
    assert.deepEqual(pipeline[4], { $match: { 'order.month': 4 } });
    assert.equal((pipeline[2]!.$lookup as { foreignField: string }).foreignField, '_id');
  });

  it("the CouchDB view emits each customer's orders under its zip, and nothing for orders", () => {
    const emitted: [unknown, unknown][] = [];
    const map = new Function('emit', `return ${ORDERS_BY_ZIP_MAP}`)((key: unknown, value: unknown) =>
      emitted.push([key, value]),
    ) as (doc: unknown) => void;
    map(customers[0]);
    map(generateOrder(DATASET, 0, 0));
    assert.deepEqual(
      emitted,
      customers[0]!.order_list.map((id) => [customers[0]!.address.zip, { _id: id }]),
    );
  });
});

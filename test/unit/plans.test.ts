/**
 * Query plans: each store's evidence read into the store-neutral plan (the parts that need no
 * server: MongoDB explain replies, Cassandra trace lines, Couchbase EXPLAIN answers as the real
 * servers give them), plans of several steps combined, a failed or unsupported explain recorded
 * as such, and the plan section flagging a query that read everything while an index was meant
 * to serve it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Result } from '../../src/results/schema.ts';
import { tracePlan } from '../../src/stores/cassandra/explain.ts';
import { sqlppPlan } from '../../src/stores/couchbase/explain.ts';
import { mongoPlan } from '../../src/stores/mongodb/explain.ts';
import { collapseLines, combineEvidence, type PlanEvidence } from '../../src/stores/query-plan.ts';
import { UnsupportedError } from '../../src/stores/store.ts';
import { renderPlans, takePlan } from '../../scenarios/shared/plans.ts';

const evidence = (over: Partial<PlanEvidence>): PlanEvidence => ({
  access: 'index',
  used: [],
  warnings: [],
  source: 's',
  raw: '',
  ...over,
});

describe('MongoDB explain', () => {
  it('a collection scan is a scan, with its documents examined', () => {
    const plan = mongoPlan({
      queryPlanner: {
        winningPlan: { stage: 'COLLSCAN' },
        rejectedPlans: [{ stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'not_chosen' } }],
      },
      executionStats: { nReturned: 20, totalKeysExamined: 0, totalDocsExamined: 5000 },
      serverInfo: { host: 'h' },
    });
    assert.deepEqual(
      [plan.access, plan.used, plan.keysExamined, plan.documentsExamined, plan.returned],
      ['scan', [], 0, 5000, 20],
    );
    assert.doesNotMatch(plan.raw, /serverInfo|not_chosen/);
  });

  it('an index scan names its index; an aggregation sums its stages and a $lookup that scans is a scan', () => {
    const ixscan = { stage: 'FETCH', inputStage: { stage: 'IXSCAN', indexName: 'persons_pet_salary_age' } };
    assert.deepEqual(
      mongoPlan({
        queryPlanner: { winningPlan: ixscan },
        executionStats: { nReturned: 3, totalKeysExamined: 4, totalDocsExamined: 3 },
      }).used,
      ['persons_pet_salary_age'],
    );
    const aggregate = {
      stages: [
        {
          $cursor: {
            queryPlanner: { winningPlan: ixscan },
            executionStats: { totalKeysExamined: 4, totalDocsExamined: 4 },
          },
        },
        { $lookup: {}, totalDocsExamined: 12, totalKeysExamined: 12, collectionScans: 0, indexesUsed: ['_id_'] },
      ],
    };
    const joined = mongoPlan(aggregate, 1);
    assert.deepEqual(
      [joined.access, joined.used, joined.keysExamined, joined.documentsExamined, joined.returned],
      ['index', ['persons_pet_salary_age', '_id_'], 16, 16, 1],
    );
    const scanning = mongoPlan(
      { stages: [aggregate.stages[0], { $lookup: {}, collectionScans: 4, indexesUsed: [] }] },
      1,
    );
    assert.equal(scanning.access, 'scan');
    assert.equal(
      mongoPlan({
        queryPlanner: { winningPlan: { stage: 'EQ_LOOKUP', strategy: 'NestedLoopJoin', inputStage: ixscan } },
      }).access,
      'scan',
    );
    assert.equal(mongoPlan({ queryPlanner: { winningPlan: { stage: 'EXPRESS_IXSCAN' } } }).access, 'key');
  });
});

describe('Cassandra tracing', () => {
  it('SAI indexes used, rows examined after filtering', () => {
    const plan = tracePlan(
      [
        'Index mean cardinalities are p_age,p_salary:9. Scanning with p_age,p_salary.',
        'Executing read on ks.p using indexes p_age,p_salary',
        'Executing single-partition query on p',
        'Executing single-partition query on p',
        'Read 18 live rows and 0 tombstone cells',
        'Index query accessed memtable indexes, 1 SSTable index, and 1 segment, post-filtered 202 rows in 110 partitions, and took 41291 microseconds.',
      ],
      18,
    );
    assert.deepEqual(
      [plan.access, plan.used, plan.documentsExamined, plan.returned],
      ['index', ['p_age', 'p_salary'], 202, 18],
    );
    assert.match(plan.raw, /Executing single-partition query on p ×2/);
  });

  it('ALLOW FILTERING without an index reads every row; a query table is read by partition', () => {
    const scan = tracePlan(
      [
        'No applicable indexes found',
        'Executing seq scan across 1 sstables for (min(-9223372036854775808), min(-9223372036854775808)]',
        'Read 200 live rows and 0 tombstone cells',
      ],
      34,
    );
    assert.deepEqual([scan.access, scan.used, scan.documentsExamined], ['scan', [], 200]);
    const key = tracePlan(
      ['Executing single-partition query on ecommerce_customers_by_country', 'Read 49 live rows and 0 tombstone cells'],
      49,
    );
    assert.deepEqual([key.access, key.used], ['key', ['ecommerce_customers_by_country (partition key)']]);
  });
});

describe('Couchbase EXPLAIN', () => {
  it('a primary scan reads every document; GSI index scans are named; phase counts give the figures', () => {
    const primary = sqlppPlan(
      {
        plan: {
          '#operator': 'Sequence',
          '~children': [{ '#operator': 'PrimaryScan3', index: '#primary' }, { '#operator': 'Fetch' }],
        },
      },
      { primaryScan: 5000, fetch: 5000 },
      472,
      [],
    );
    assert.deepEqual(
      [primary.access, primary.used, primary.keysExamined, primary.documentsExamined, primary.returned],
      ['scan', ['#primary'], 5000, 5000, 472],
    );
    const gsi = sqlppPlan(
      {
        plan: {
          '#operator': 'Sequence',
          '~children': [
            { '#operator': 'IndexScan3', index: 'persons_salary_age', spans: [] },
            { '#operator': 'Fetch' },
          ],
        },
      },
      { 'indexScan.GSI': 520, 'fetch.GSI': 472 },
      472,
      ['some warning'],
    );
    assert.deepEqual(
      [gsi.access, gsi.used, gsi.keysExamined, gsi.documentsExamined, gsi.warnings],
      ['index', ['persons_salary_age'], 520, 472, ['some warning']],
    );
    // The ANSI JOIN's inner side looks orders up by key through the primary index: not a scan.
    const join = sqlppPlan(
      {
        plan: {
          '~children': [
            { '#operator': 'IndexScan3', index: 'ecommerce_zip_orders' },
            { '#operator': 'NestedLoopJoin', '~child': { '#operator': 'IndexScan3', index: '#primary' } },
          ],
        },
      },
      {},
      1,
      [],
    );
    assert.deepEqual([join.access, join.used], ['index', ['ecommerce_zip_orders', '#primary']]);
  });
});

describe('plans of several steps, and plans that could not be taken', () => {
  it('the worst access wins, figures add up, every structure is named', () => {
    const combined = combineEvidence([
      {
        label: 'customers',
        plan: evidence({ access: 'index', used: ['by-zip'], keysExamined: 3, documentsExamined: 3, returned: 3 }),
      },
      { label: 'orders', plan: evidence({ access: 'key', used: ['_all_docs'], documentsExamined: 12, returned: 12 }) },
    ]);
    assert.deepEqual(
      [combined.access, combined.used, combined.keysExamined, combined.documentsExamined, combined.returned],
      ['index', ['by-zip', '_all_docs'], 3, 15, 12],
    );
    assert.equal(
      combineEvidence([
        { label: 'a', plan: evidence({ access: 'key' }) },
        { label: 'b', plan: evidence({ access: 'scan' }) },
      ]).access,
      'scan',
    );
    assert.equal(collapseLines(['a', 'b', 'a']), 'a ×2\nb');
  });

  it('flags a scan where an index was expected; an unsupported or failed explain is recorded, never thrown', async () => {
    const flagged = await takePlan('Q2', 'mango', async () => ({
      ...evidence({ access: 'scan' }),
      indexExpected: true,
    }));
    assert.equal(flagged.flagged, true);
    const fine = await takePlan(
      'Q2',
      'mango',
      async () => ({ ...evidence({ access: 'scan' }), indexExpected: false }),
      { zip: '1' },
    );
    assert.deepEqual([fine.flagged, fine.parameters], [false, '{"zip":"1"}']);
    const unsupported = await takePlan('Q1', 'gsi', async () => {
      throw new UnsupportedError('EXPLAIN', 'no query service');
    });
    assert.deepEqual(
      [unsupported.access, unsupported.source, unsupported.warnings],
      ['unknown', 'UNSUPPORTED', ['no plan: EXPLAIN is not supported: no query service']],
    );
    const failed = await takePlan('Q1', 'gsi', async () => {
      throw new Error('boom');
    });
    assert.deepEqual([failed.source, failed.warnings], ['error', ['explain failed: boom']]);
  });

  it('flags an index walked far past the rows its answer needed, like a scan', async () => {
    const walk = (keysExamined: number, rowsNeeded: number | undefined, indexExpected = true) =>
      takePlan('author-page', 'default', async () => ({
        ...evidence({ keysExamined, returned: 1 }),
        indexExpected,
        ...(rowsNeeded !== undefined ? { rowsNeeded } : {}),
      }));
    // blog's author-page on an index of its sort key alone, then on the declared [author, published].
    const before = await walk(2001, 1);
    assert.equal(before.flagged, true);
    assert.equal('rowsNeeded' in before, false, 'the figure judged against stays out of the result');
    assert.equal((await walk(2, 1)).flagged, false);
    // Short walks are cheap, a count's every entry counts, and no index was meant: not flagged.
    assert.equal((await walk(900, 1)).flagged, false);
    assert.equal((await walk(5000, undefined)).flagged, false);
    assert.equal((await walk(5000, 1, false)).flagged, false);
    assert.equal((await walk(5000, 600)).flagged, false);
    const section = renderPlans([
      { store: { name: 'couchdb' }, workload: { name: 'blog' }, plans: [before] } as unknown as Result,
    ]);
    assert.match(section, /FLAGGED: examined 2,001 entries for 1 rows: the index was walked, not used/);
    assert.match(
      section,
      /^FLAGGED: couchdb \[default\] author-page examined over 10 times the entries its answer needed/m,
    );
  });

  it('the plan section lists every plan once and names the flagged ones', async () => {
    const plan = await takePlan('Q2', 'mango', async () => ({
      ...evidence({ access: 'scan', warnings: ['No matching index found'] }),
      indexExpected: true,
    }));
    const result = {
      store: { name: 'couchdb', standIn: { name: 'x', version: '1', note: '' } },
      workload: { name: 'persons' },
      plans: [plan, plan],
    } as unknown as Result;
    const section = renderPlans([result]);
    assert.equal(section.match(/\| couchdb \(stand-in\) \| mango/g)?.length, 1);
    assert.match(section, /FLAGGED: read everything, an index was meant to serve it; No matching index found/);
    assert.match(
      section,
      /^FLAGGED: couchdb \(stand-in\) \[mango\] Q2 read every document although an index was built for it\.$/m,
    );
    assert.equal(renderPlans([{ ...result, plans: [] } as Result]), '');
  });
});

/**
 * Servers that speak another store's protocol are named as themselves, from their own answers:
 * recorded replies (FerretDB's buildInfo as FerretDB v1.24.2 answers it here; the marker fields
 * and host names the other products document) through the detection, and a result that carries
 * one through every report label, in cells of its own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderComparisonTable } from '../../src/report/comparison-table.ts';
import { cellsOf, storeLabel } from '../../src/report/groups.ts';
import { renderCsv } from '../../src/report/csv.ts';
import { ycsbHeader } from '../../src/report/ycsb-text.ts';
import { resultSchema, type Result } from '../../src/results/schema.ts';
import { couchCompatibleProduct } from '../../src/stores/couchdb/compatible.ts';
import { mongoCompatibleProduct } from '../../src/stores/mongodb/compatible.ts';
import { syntheticResult } from '../support/synthetic-results.ts';

/** FerretDB v1.24.2's buildInfo (--handler=pg), as it answered on this machine (fields trimmed to those it sends). */
const FERRETDB_BUILD_INFO = {
  version: '7.0.42',
  gitVersion: 'unknown',
  modules: [],
  sysInfo: 'deprecated',
  versionArray: [7, 0, 42, 0],
  bits: 64,
  debug: false,
  maxBsonObjectSize: 16777216,
  buildEnvironment: {
    'go.version': 'go1.26.8',
    '-buildmode': 'exe',
    '-compiler': 'gc',
    CGO_ENABLED: '0',
    GOOS: 'linux',
  },
  ferretdbVersion: 'v1.24.2',
  ferretdbFeatures: {
    aggregationStages: [
      '$addFields',
      '$collStats',
      '$count',
      '$group',
      '$match',
      '$skip',
      '$sort',
      '$unset',
      '$limit',
      '$project',
      '$set',
      '$unwind',
    ],
  },
  ok: 1,
};

/** A mongod's buildInfo (the fields the detection reads). */
const MONGOD_BUILD_INFO = {
  version: '8.0.4',
  gitVersion: 'bc35ab4305d9920d9d1d8d3a3dc1d8bd8a4b7b19',
  modules: [],
  ok: 1,
};

describe('MongoDB-compatible servers are named from their answers', () => {
  it('FerretDB: buildInfo.ferretdbVersion, its own version, the MongoDB version it reports kept in the note', () => {
    const found = mongoCompatibleProduct({ buildInfo: FERRETDB_BUILD_INFO, host: '127.0.0.1' });
    assert.equal(found?.product, 'FerretDB');
    assert.equal(found?.version, 'v1.24.2');
    assert.match(found!.note, /^MongoDB-compatible, not MongoDB: /);
    assert.match(found!.note, /reports MongoDB 7\.0\.42/);
  });

  it('FerretDB v2: buildInfo.ferretdb.version', () => {
    const found = mongoCompatibleProduct({ buildInfo: { version: '7.0.77', ferretdb: { version: 'v2.1.0' } } });
    assert.deepEqual([found?.product, found?.version], ['FerretDB', 'v2.1.0']);
  });

  it('Azure Cosmos DB for MongoDB: its host name, or the `_t: OKMongoResponse` its gateway adds to replies', () => {
    for (const answers of [
      { buildInfo: { version: '4.2.0', ok: 1 }, host: 'myaccount.mongo.cosmos.azure.com' },
      { buildInfo: { version: '7.0.0', ok: 1 }, host: 'c-mycluster.abc123.mongocluster.cosmos.azure.com' },
      { buildInfo: { _t: 'OKMongoResponse', version: '3.6.0', ok: 1 }, host: '10.0.0.5' },
    ])
      assert.equal(mongoCompatibleProduct(answers)?.product, 'Azure Cosmos DB for MongoDB', answers.host);
  });

  it('Amazon DocumentDB: its host names (instance, cluster and elastic cluster endpoints)', () => {
    for (const host of [
      'docdb-2024.cluster-c9akciq32.us-east-1.docdb.amazonaws.com',
      'sample-cluster.node.us-east-1.docdb.amazonaws.com',
      'my-elastic-cluster-123456789012.us-east-1.docdb-elastic.amazonaws.com',
    ])
      assert.equal(
        mongoCompatibleProduct({ buildInfo: { version: '5.0.0', ok: 1 }, host })?.product,
        'Amazon DocumentDB',
        host,
      );
  });

  it('MongoDB itself (and Atlas) is no compatible product', () => {
    assert.equal(
      mongoCompatibleProduct({ buildInfo: MONGOD_BUILD_INFO, host: 'cluster0.abcde.mongodb.net' }),
      undefined,
    );
    assert.equal(mongoCompatibleProduct({}), undefined);
  });
});

describe('CouchDB-compatible servers are named from their welcome', () => {
  it('Apache CouchDB is CouchDB', () => {
    const welcome = {
      couchdb: 'Welcome',
      version: '3.3.3',
      git_sha: '40afbcfc7',
      vendor: { name: 'The Apache Software Foundation' },
    };
    assert.equal(couchCompatibleProduct(welcome), undefined);
  });

  it('IBM Cloudant: its vendor name, or its host', () => {
    const welcome = {
      couchdb: 'Welcome',
      version: '2.1.1',
      vendor: { name: 'IBM Cloudant', version: '8162', variant: 'paas' },
    };
    const found = couchCompatibleProduct(welcome);
    assert.deepEqual([found?.product, found?.version], ['IBM Cloudant', '8162']);
    assert.match(found!.note, /^CouchDB-compatible, not Apache CouchDB: /);
    assert.equal(
      couchCompatibleProduct({ couchdb: 'Welcome', version: '2.1.1' }, 'acct-bluemix.cloudantnosqldb.appdomain.cloud')
        ?.product,
      'IBM Cloudant',
    );
  });

  it('Couchbase Sync Gateway: its vendor', () => {
    const welcome = {
      couchdb: 'Welcome',
      vendor: { name: 'Couchbase Sync Gateway', version: '3.1' },
      version: 'Couchbase Sync Gateway/3.1.3(3;4d2d3e7) EE',
    };
    assert.deepEqual(
      [couchCompatibleProduct(welcome)?.product, couchCompatibleProduct(welcome)?.version],
      ['Couchbase Sync Gateway', '3.1'],
    );
  });

  it('pouchdb-server is left to the stand-in label', () => {
    assert.equal(couchCompatibleProduct({ 'express-pouchdb': 'Welcome!', version: '4.2.0' }), undefined);
  });
});

/** A synthetic result on a compatible server. */
function onFerretdb(r: Result): Result {
  return resultSchema.parse({
    ...r,
    store: {
      ...r.store,
      server: 'FerretDB',
      serverVersion: '1.24.2',
      compatible: mongoCompatibleProduct({ buildInfo: FERRETDB_BUILD_INFO }),
    },
  });
}

describe('every output names a compatible product, and keeps its cells apart', () => {
  const mongodb = syntheticResult({ store: 'mongodb', seed: 1 });
  const ferretdb = onFerretdb(syntheticResult({ store: 'mongodb', seed: 2 }));

  it('labels, cells, the table, the CSV and the text header name FerretDB, never as MongoDB', () => {
    assert.equal(storeLabel(ferretdb), 'mongodb (FerretDB v1.24.2, MongoDB-compatible, not MongoDB)');
    assert.equal(cellsOf([mongodb, ferretdb]).length, 2);
    const table = renderComparisonTable([mongodb, ferretdb]);
    assert.match(table, /mongodb \(FerretDB v1\.24\.2\)/);
    assert.match(table, /mongodb: figures come from FerretDB v1\.24\.2, MongoDB-compatible, not MongoDB/);
    const csv = renderCsv([ferretdb]);
    assert.match(csv.split('\n')[0]!, /,stand_in,compatible_product,/);
    assert.match(csv, /"FerretDB v1\.24\.2 \(MongoDB-compatible, not MongoDB\)"/);
    assert.ok(
      ycsbHeader(ferretdb).some((line) => /^SERVER: FerretDB v1\.24\.2, MongoDB-compatible, not MongoDB/.test(line)),
    );
  });
});

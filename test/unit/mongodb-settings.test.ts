/**
 * The MongoDB store's URL and settings, checked before anything connects: every bad one is a
 * one-line user error naming it (with the URL's password masked), and good ones become the
 * driver's options. Creating the store only parses (the driver connects in `connect`), so no
 * server is needed here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SettingError } from '../../src/common/settings.ts';
import { UserError } from '../../src/common/user-error.ts';
import { createStore } from '../../src/stores/mongodb/index.ts';
import { parseMongodbSettings } from '../../src/stores/mongodb/settings.ts';
import { MongoUrlError, parseMongoUrl } from '../../src/stores/mongodb/url.ts';

const URL = 'mongodb://127.0.0.1:27117/?directConnection=true';
const open = (settings: Record<string, string>, url = URL, concurrency = 4) =>
  createStore({ url, settings, concurrency });

/** The error `run` throws, which must be a one-line user error of `type`. */
function userError(run: () => unknown, type: new (...args: never[]) => UserError): UserError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof type, `${type.name} expected, got ${String(error)}`);
    assert.doesNotMatch(error.message, /\n/);
    return error;
  }
  assert.fail(`no ${type.name} thrown`);
}

describe('MongoDB settings', () => {
  it('an unknown mongodb.* setting is a SettingError with a "did you mean"', () => {
    const e = userError(() => open({ 'mongodb.writeconcern': '1' }), SettingError);
    assert.match(
      e.message,
      /^unknown setting mongodb\.writeconcern \(did you mean "mongodb\.writeConcern"\?\); mongodb understands mongodb\.writeConcern, mongodb\.journal, /,
    );
    assert.match(
      userError(() => open({ 'mongodb.maxPoolSise': '3' }), SettingError).message,
      /did you mean "mongodb\.maxPoolSize"/,
    );
    assert.match(
      userError(() => open({ 'mongodb.nosuch': '1' }), SettingError).message,
      /^unknown setting mongodb\.nosuch; mongodb understands /,
    );
  });

  it("YCSB's binding properties that docbench takes elsewhere say where", () => {
    assert.match(
      userError(() => open({ 'mongodb.url': 'mongodb://h/' }), SettingError).message,
      /^unknown setting mongodb\.url \(give the URL with --url\)$/,
    );
    assert.match(userError(() => open({ 'mongodb.batchsize': '10' }), SettingError).message, /`batchsize` property/);
  });

  it('a bad value is a SettingError naming the key, the value and what was expected', () => {
    const cases: [string, string, RegExp][] = [
      ['mongodb.maxPoolSize', 'lots', /^mongodb\.maxPoolSize=lots: expected a whole number >= 1 \(/],
      ['mongodb.maxPoolSize', '0', /^mongodb\.maxPoolSize=0: expected a whole number >= 1/],
      [
        'mongodb.serverSelectionTimeoutMS',
        'soon',
        /^mongodb\.serverSelectionTimeoutMS=soon: expected a whole number >= 1/,
      ],
      [
        'mongodb.writeConcern',
        'most',
        /^mongodb\.writeConcern=most: expected a number of nodes \(0, 1, 2, …\) or majority/,
      ],
      ['mongodb.writeConcern', '-1', /^mongodb\.writeConcern=-1: expected a number of nodes/],
      ['mongodb.journal', 'yes', /^mongodb\.journal=yes: expected true or false/],
      [
        'mongodb.readPreference',
        'primaryy',
        /^mongodb\.readPreference=primaryy: expected one of primary, primaryPreferred, secondary, secondaryPreferred, nearest/,
      ],
    ];
    for (const [key, value, message] of cases)
      assert.match(userError(() => open({ [key]: value }), SettingError).message, message, `${key}=${value}`);
  });

  it("other stores' settings are not the MongoDB store's business", () => {
    assert.deepEqual(parseMongodbSettings({ 'redis.autopipelining': 'true', threadcount: '4' }), {
      writeConcern: undefined,
      journal: undefined,
      readPreference: undefined,
      maxPoolSize: undefined,
      serverSelectionTimeoutMS: undefined,
    });
  });

  it('good values become the driver options; the pool is sized to the concurrency unless the URL or a setting says otherwise', () => {
    const store = open(
      {
        'mongodb.writeConcern': 'majority',
        'mongodb.journal': 'true',
        'mongodb.readPreference': 'nearest',
        'mongodb.serverSelectionTimeoutMS': '1500',
      },
      URL,
      7,
    );
    assert.equal(store.handle.db.writeConcern?.w, 'majority');
    assert.equal(store.handle.db.writeConcern?.journal, true);
    assert.equal(store.handle.db.readPreference.mode, 'nearest');
    assert.equal(store.handle.client.options.maxPoolSize, 7);
    assert.equal(store.handle.client.options.serverSelectionTimeoutMS, 1500);
    assert.equal(open({ 'mongodb.writeConcern': '0' }).handle.db.writeConcern?.w, 0);
    assert.equal(
      open({}).handle.client.options.serverSelectionTimeoutMS,
      5000,
      "docbench's default, not the driver's 30 s",
    );
    const poolUrl = `${URL}&maxPoolSize=2&serverSelectionTimeoutMS=900`;
    assert.equal(open({}, poolUrl).handle.client.options.maxPoolSize, 2);
    assert.equal(open({}, poolUrl).handle.client.options.serverSelectionTimeoutMS, 900);
    assert.equal(open({ 'mongodb.maxPoolSize': '5' }, poolUrl).handle.client.options.maxPoolSize, 5);
  });
});

describe('MongoDB connection strings', () => {
  it('takes the database from the path (default ycsb) and masks the password, for mongodb:// and mongodb+srv://', () => {
    const srv = parseMongoUrl(
      'mongodb+srv://app%40corp:p%2Fss@cluster0.ab1cd.mongodb.net/shop?retryWrites=true&w=majority&appName=Cluster0',
    );
    assert.equal(srv.database, 'shop');
    assert.equal(
      srv.displayUrl,
      'mongodb+srv://app%40corp:***@cluster0.ab1cd.mongodb.net/shop?retryWrites=true&w=majority&appName=Cluster0',
    );
    assert.ok(srv.urlOptions.has('retrywrites'));
    const replicaSet = parseMongoUrl('mongodb://u:pw@h1:27017,h2:27017,h3:27017/?replicaSet=rs0&authSource=admin');
    assert.equal(replicaSet.database, 'ycsb');
    assert.equal(replicaSet.displayUrl, 'mongodb://u:***@h1:27017,h2:27017,h3:27017/?replicaSet=rs0&authSource=admin');
    assert.equal(parseMongoUrl('mongodb://localhost').database, 'ycsb');
    assert.equal(parseMongoUrl('mongodb://localhost:27017/bench').database, 'bench');
    assert.equal(parseMongoUrl('mongodb://app@localhost/').displayUrl, 'mongodb://app@localhost/');
  });

  it('each bad shape is a one-line MongoUrlError naming the URL with its password masked', () => {
    const cases: [string, RegExp][] = [
      [
        'http://app:s3cret@localhost:27017/',
        /^mongodb: "http:\/\/app:\*\*\*@localhost:27017\/" is not a MongoDB connection string; expected mongodb:\/\/\[user:password@\]host/,
      ],
      [
        'mongodb://app:s3cret@/ycsb',
        /^mongodb: "mongodb:\/\/app:\*\*\*@\/ycsb" is not a MongoDB connection string; expected /,
      ],
      [
        'mongodb://app:s3cret@localhost/a.b',
        /^mongodb: "mongodb:\/\/app:\*\*\*@localhost\/a\.b" names the database "a\.b" in its path, which is not a valid database name/,
      ],
      ['mongodb://app:s3cret@localhost/%zz', /malformed %-escape in its path "\/%zz"/],
      [
        'mongodb://app:s3cret@localhost:port/',
        /^mongodb: "mongodb:\/\/app:\*\*\*@localhost:port\/" is refused by the driver: .*; expected mongodb:\/\//,
      ],
      ['mongodb://app:s3cret@localhost/?maxPoolSize=many', /is refused by the driver: .*maxPoolSize.*many/],
      [
        'mongodb://app:s3cret@localhost/?nosuchoption=1',
        /is refused by the driver: option nosuchoption is not supported/,
      ],
      [
        'mongodb+srv://app:s3cret@cluster0.example.net:27017/',
        /is refused by the driver: mongodb\+srv URI cannot have port number/,
      ],
      ['mongodb://app:p@ss:s3cret@localhost/', /^mongodb: "mongodb:\/\/app:\*\*\*@localhost\/"/],
    ];
    for (const [url, message] of cases) {
      const e = userError(() => open({}, url), MongoUrlError);
      assert.match(e.message, message, url);
      assert.doesNotMatch(e.message, /s3cret/, url);
    }
  });
});

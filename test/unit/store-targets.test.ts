/**
 * Where each store of a command is: `--url store=URL`, a plain `--url`, `--docker`, the config
 * file, or the local server; the config file's format and its one-line errors; passwords masked.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadConfig, parseConfig } from '../../src/session/config-file.ts';
import { maskUrl } from '../../src/common/mask-url.ts';
import { defaultStores, splitUrlFlag, StoreTargets } from '../../src/session/store-targets.ts';
import { DOCKER_URLS } from '../../src/local/docker.ts';
import { UserError } from '../../src/common/user-error.ts';

const work = mkdtempSync(join(tmpdir(), 'docbench-targets-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A user error whose message is one line matching `pattern`. */
function throwsUserError(call: () => unknown, pattern: RegExp): void {
  assert.throws(call, (error: unknown) => {
    assert.ok(error instanceof UserError, `a UserError, got ${String(error)}`);
    assert.equal(error.message.split('\n').length, 1, error.message);
    assert.match(error.message, pattern);
    return true;
  });
}

const config = (stores: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) =>
  parseConfig({ stores }, 'team.json', env);

describe('--url', () => {
  it('store=URL names the store; a plain URL does not', () => {
    assert.deepEqual(splitUrlFlag('couchdb=http://admin:pw@db:5984'), ['couchdb', 'http://admin:pw@db:5984']);
    assert.deepEqual(splitUrlFlag('http://admin:a=b@db:5984'), [undefined, 'http://admin:a=b@db:5984']);
    assert.deepEqual(splitUrlFlag('redis://h:6379'), [undefined, 'redis://h:6379']);
  });

  it('gives each store its own URL; the others use the local server', () => {
    const t = StoreTargets.resolve(
      { url: ['couchdb=http://a:b@h:5984', 'redis=redis://h:6390'] },
      ['redis', 'mongodb', 'couchdb'],
      null,
    );
    assert.equal(t.urlOf('couchdb'), 'http://a:b@h:5984');
    assert.equal(t.urlOf('redis'), 'redis://h:6390');
    assert.equal(t.urlOf('mongodb'), undefined);
    assert.equal(t.sourceOf('mongodb'), 'local');
    assert.doesNotMatch(t.describe(), /:b@/);
  });

  it('a plain URL applies to the one store of the command', () => {
    assert.equal(StoreTargets.resolve({ url: ['redis://h:1'] }, ['redis'], null).urlOf('redis'), 'redis://h:1');
  });

  it('mistakes are one-line user errors, passwords masked', () => {
    throwsUserError(
      () => StoreTargets.resolve({ url: ['http://admin:secret@h:5984'] }, ['redis', 'couchdb'], null),
      /^--url names one server \(http:\/\/admin:\*\*\*@h:5984\) and this command runs 2 stores \(redis, couchdb\): say which with --url <store>=URL$/,
    );
    throwsUserError(
      () => StoreTargets.resolve({ url: ['redis=redis://h:1'], docker: true }, ['redis', 'couchdb'], null),
      /^give --url or --docker, not both$/,
    );
    throwsUserError(
      () => StoreTargets.resolve({ url: ['couchdb=http://h:5984'] }, ['redis'], null),
      /--url couchdb=…: couchdb is not among the stores this command runs \(redis\)/,
    );
    throwsUserError(
      () => StoreTargets.resolve({ url: ['couchbd=http://h:5984'] }, ['couchdb'], null),
      /--url couchbd=…: unknown store "couchbd" \(did you mean "couchdb"\?\)/,
    );
    throwsUserError(
      () => StoreTargets.resolve({ url: ['redis=redis://a', 'redis=redis://b'] }, ['redis'], null),
      /redis is given two URLs/,
    );
    assert.doesNotMatch(
      String(
        (() => {
          try {
            StoreTargets.resolve({ url: ['http://admin:secret@h'] }, ['a', 'b'], null);
          } catch (e) {
            return e;
          }
        })(),
      ),
      /secret/,
    );
  });

  it('--url and --docker win over the config file', () => {
    const file = config({
      redis: { url: 'redis://configured:6379' },
      couchdb: { url: 'http://configured:5984' },
      mongodb: { url: 'mongodb://configured' },
    });
    assert.equal(
      StoreTargets.resolve({ url: ['redis=redis://given:1'] }, ['redis', 'couchdb'], file).urlOf('redis'),
      'redis://given:1',
    );
    const t = StoreTargets.resolve({ url: [], docker: true }, ['redis', 'couchdb'], file);
    assert.equal(t.urlOf('couchdb'), DOCKER_URLS.couchdb);
    assert.equal(t.sourceOf('couchdb'), '--docker');
    const fromFile = StoreTargets.resolve({ url: [] }, ['couchdb'], file);
    assert.equal(fromFile.urlOf('couchdb'), 'http://configured:5984');
    assert.equal(fromFile.sourceOf('couchdb'), 'config');
    throwsUserError(
      () => StoreTargets.resolve({ url: [], docker: true }, ['basic'], null),
      /--docker: docker\/compose.yaml has no server for "basic"/,
    );
    // No official HBase image: under --docker, HBase keeps docbench's local server, which is the real one.
    const withHbase = StoreTargets.resolve({ url: [], docker: true }, ['redis', 'hbase'], null);
    assert.equal(withHbase.sourceOf('hbase'), 'local');
    assert.equal(withHbase.sourceOf('redis'), '--docker');
  });

  it('--docker without a Docker engine is a one-line error naming Docker; no --docker store, no check', () => {
    const path = process.env.PATH;
    // An empty PATH: no docker command at all, whatever this machine has.
    process.env.PATH = work;
    try {
      throwsUserError(
        () => StoreTargets.resolve({ url: [], docker: true }, ['redis'], null).checkDocker(),
        /^--docker: Docker is not installed here .*docbench up --docker/,
      );
      // Only HBase (no container) or no --docker: nothing runs under Docker, so nothing is checked.
      StoreTargets.resolve({ url: [], docker: true }, ['hbase'], null).checkDocker();
      StoreTargets.resolve({ url: ['redis=redis://h:1'] }, ['redis'], null).checkDocker();
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('config file', () => {
  it('stores in the file order, URLs with ${ENV} filled in, settings with the store prefix', () => {
    const c = config(
      {
        couchdb: {
          url: 'http://admin:${COUCH_PW}@db:5984',
          settings: { maxsockets: 16, 'couchdb.connecttimeout': '9000' },
        },
        redis: {},
      },
      { COUCH_PW: 's3cret' },
    );
    assert.deepEqual([...c.stores.keys()], ['couchdb', 'redis']);
    assert.equal(c.stores.get('couchdb')?.url, 'http://admin:s3cret@db:5984');
    assert.deepEqual(c.stores.get('couchdb')?.settings, ['couchdb.maxsockets=16', 'couchdb.connecttimeout=9000']);
    const t = StoreTargets.resolve({ url: [] }, ['couchdb', 'redis'], c);
    assert.deepEqual(t.settings(), ['couchdb.maxsockets=16', 'couchdb.connecttimeout=9000']);
    assert.equal(t.urlOf('redis'), undefined, 'a store without a url uses the local server');
    assert.deepEqual(defaultStores(c, ['mongodb']), ['couchdb', 'redis']);
    assert.deepEqual(defaultStores(null, ['mongodb']), ['mongodb']);
  });

  it("only the command's stores contribute settings", () => {
    const c = config({ couchdb: { settings: { maxsockets: 4 } }, mongodb: { settings: { maxPoolSize: 3 } } });
    assert.deepEqual(StoreTargets.resolve({ url: [] }, ['mongodb'], c).settings(), ['mongodb.maxPoolSize=3']);
  });

  it('mistakes are one-line user errors naming the file and the key', () => {
    throwsUserError(
      () => config({ couchdb: { url: 'http://admin:${NOPE}@db' } }),
      /^team.json: stores.couchdb.url: the environment variable NOPE is not set$/,
    );
    throwsUserError(
      () => config({ couchbd: {} }),
      /team.json: stores: unknown store "couchbd" \(did you mean "couchdb"\?\)/,
    );
    throwsUserError(() => config({ couchdb: { uri: 'x' } }), /team.json: stores.couchdb: unknown key "uri"/);
    throwsUserError(() => config({ couchdb: { url: 5984 } }), /team.json: stores.couchdb.url: /);
    throwsUserError(
      () => config({ couchdb: { settings: { 'redis.driver': 'ioredis' } } }),
      /stores.couchdb.settings: "redis.driver" is not a couchdb setting/,
    );
    throwsUserError(() => parseConfig({ store: {} }, 'team.json'), /team.json: /);
  });

  it('is read from --config, or docbench.config.json in the working folder when it exists', () => {
    const file = join(work, 'docbench.config.json');
    writeFileSync(file, JSON.stringify({ stores: { redis: { url: 'redis://h:7000' } } }));
    assert.equal(loadConfig(file)?.stores.get('redis')?.url, 'redis://h:7000');
    const cwd = process.cwd();
    process.chdir(work);
    try {
      assert.equal(loadConfig(undefined)?.file, 'docbench.config.json');
    } finally {
      process.chdir(cwd);
    }
    throwsUserError(() => loadConfig(join(work, 'missing.json')), /--config .*missing.json: no such file/);
    const broken = join(work, 'broken.json');
    writeFileSync(broken, '{"stores": {');
    assert.throws(() => loadConfig(broken), ConfigError);
    throwsUserError(() => loadConfig(broken), /broken.json: not valid JSON/);
  });
});

describe('masking', () => {
  it('hides the whole password, whatever it holds, and leaves URLs without one alone', () => {
    assert.equal(maskUrl('http://admin:relax@127.0.0.1:5984'), 'http://admin:***@127.0.0.1:5984');
    assert.equal(maskUrl('http://admin:p@ss/w:rd@db:5984/x'), 'http://admin:***@db:5984/x');
    assert.equal(maskUrl('couchbase://u:pw@h/b?couchbase.query=false'), 'couchbase://u:***@h/b?couchbase.query=false');
    assert.equal(maskUrl('redis://127.0.0.1:6379'), 'redis://127.0.0.1:6379');
    assert.equal(maskUrl('mongodb://user@h/db'), 'mongodb://user@h/db');
  });
});

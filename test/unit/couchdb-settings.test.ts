/**
 * The CouchDB store's URL and settings: every bad one is a one-line user error naming what was
 * wrong (the URL with its password masked), raised when the store is made, before any request.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SettingError } from '../../src/common/settings.ts';
import { UserError } from '../../src/common/user-error.ts';
import { createStore } from '../../src/stores/couchdb/index.ts';
import { CouchdbTableNameError } from '../../src/stores/couchdb/settings.ts';
import { CouchdbUrlError, maskCredentials, parseCouchdbUrl } from '../../src/stores/couchdb/url.ts';

const URL = 'http://admin:secret@127.0.0.1:5984';
const make = (settings: Record<string, string>, url = URL, concurrency = 4) =>
  createStore({ url, settings, concurrency });

/** Asserts a one-line error of `type` matching `pattern`; `secret` must not appear in it. */
function throwsOneLine(call: () => unknown, type: new (...args: never[]) => Error, pattern: RegExp): void {
  assert.throws(call, (e: Error) => {
    assert.ok(e instanceof type, `${e.constructor.name}: ${e.message}`);
    assert.ok(e instanceof UserError, 'a user error');
    assert.match(e.message, pattern);
    assert.doesNotMatch(e.message, /secret/, 'password masked');
    assert.doesNotMatch(e.message, /\n/, 'one line');
    return true;
  });
}

describe('couchdb settings', () => {
  it('an unknown couchdb.* setting is a SettingError with a did-you-mean', () => {
    throwsOneLine(
      () => make({ 'couchdb.maxsocket': '8' }),
      SettingError,
      /unknown setting couchdb\.maxsocket \(did you mean "couchdb\.maxsockets"\?\); couchdb understands couchdb\.database, couchdb\.maxsockets, couchdb\.connecttimeout, couchdb\.requesttimeout/,
    );
    throwsOneLine(
      () => make({ 'couchdb.nosuch': '1' }),
      SettingError,
      /unknown setting couchdb\.nosuch; couchdb understands/,
    );
  });

  it('a bad value is a SettingError naming the key, the value and what was expected', () => {
    throwsOneLine(
      () => make({ 'couchdb.connecttimeout': 'soon' }),
      SettingError,
      /^couchdb\.connecttimeout=soon: expected a whole number >= 1/,
    );
    throwsOneLine(
      () => make({ 'couchdb.maxsockets': '0' }),
      SettingError,
      /^couchdb\.maxsockets=0: expected a whole number >= 1/,
    );
    throwsOneLine(
      () => make({ 'couchdb.maxsockets': '' }),
      SettingError,
      /^couchdb\.maxsockets=: expected a whole number/,
    );
    throwsOneLine(
      () => make({ 'couchdb.database': 'Users' }),
      SettingError,
      /^couchdb\.database=Users: expected a CouchDB database name \(a lower-case letter first/,
    );
  });

  it('the database named by both the URL and couchdb.database must be the same one', () => {
    throwsOneLine(
      () => make({ 'couchdb.database': 'other' }, `${URL}/mine`),
      SettingError,
      /couchdb\.database=other: the URL names the database "mine"; give one of them/,
    );
    assert.doesNotThrow(() => make({ 'couchdb.database': 'mine' }, `${URL}/mine`));
  });

  it("other stores' settings are not the store's business", () => {
    assert.doesNotThrow(() => make({ 'redis.autopipelining': 'true', 'mongodb.nosuch': 'x' }));
  });

  it('a table maps to its own database, unless the URL path or couchdb.database names one for every table', () => {
    const databaseOf = (store: ReturnType<typeof make>) => store.handle.databaseName('usertable');
    assert.equal(databaseOf(make({})), 'usertable');
    assert.equal(databaseOf(make({}, `${URL}/bench`)), 'bench');
    assert.equal(databaseOf(make({ 'couchdb.database': 'bench' })), 'bench');
  });

  it('a table that cannot be a database name is a user error when it is used (prepare), before any request', async () => {
    const store = make({});
    try {
      await assert.rejects(
        store.prepare({ table: 'UserTable', fieldNames: [] }),
        (e: Error) =>
          e instanceof CouchdbTableNameError &&
          /table "UserTable" is not a CouchDB database name.*-p couchdb\.database=/.test(e.message),
      );
    } finally {
      await store.close();
    }
  });
});

describe('couchdb URL', () => {
  const bad: [string, RegExp][] = [
    ['admin:secret@127.0.0.1:5984', /has the scheme admin:\/\//],
    ['http//admin:secret@127.0.0.1:5984', /is not a URL/],
    ['couchdb://admin:secret@127.0.0.1:5984', /has the scheme couchdb:\/\/ \(CouchDB speaks HTTP/],
    ['http://admin:secret@127.0.0.1:5984/Users', /names the database "Users", which is not a CouchDB database name/],
    ['http://admin:secret@127.0.0.1:5984/%zz', /path "%zz" that is not valid percent-encoding/],
    ['http://admin:secret@127.0.0.1:5984/?couchdb.maxsockets=4', /has a query string or fragment/],
    ['http://admin:secret@127.0.0.1:5984/#db', /has a query string or fragment/],
    ['http://:secret@127.0.0.1:5984', /has a password but no user name/],
    ['http://admin:secret@[::1', /is not a URL/],
  ];
  for (const [url, pattern] of bad) {
    it(`${maskCredentials(url)}: a CouchdbUrlError naming the URL (password masked) and the expected shape`, () => {
      throwsOneLine(() => make({}, url), CouchdbUrlError, pattern);
      throwsOneLine(() => make({}, url), CouchdbUrlError, /admin:\*\*\*@|:\*\*\*@/);
      throwsOneLine(
        () => make({}, url),
        CouchdbUrlError,
        /; expected http\(s\):\/\/USER:PASSWORD@host:5984\[\/database\]$/,
      );
    });
  }

  it('a good URL: the server URL keeps the credentials for nano, the display URL masks them, the path is the database', () => {
    assert.deepEqual(parseCouchdbUrl('https://admin:p%40ss@couch.example:6984/bench/'), {
      serverUrl: 'https://admin:p%40ss@couch.example:6984/',
      database: 'bench',
      displayUrl: 'https://admin:***@couch.example:6984/',
    });
    assert.deepEqual(parseCouchdbUrl('http://127.0.0.1:5984'), {
      serverUrl: 'http://127.0.0.1:5984/',
      database: undefined,
      displayUrl: 'http://127.0.0.1:5984/',
    });
    assert.equal(
      parseCouchdbUrl('http://admin:pw@h:5984/a%2Fb').database,
      'a/b',
      'an encoded slash is part of the name, as CouchDB allows',
    );
  });

  it('maskCredentials masks up to the last @ (an unencoded password may hold one) and leaves a URL without a password alone', () => {
    assert.equal(maskCredentials('http://admin:se@cr/et@h:5984/db'), 'http://admin:***@h:5984/db');
    assert.equal(maskCredentials('http://admin@h:5984'), 'http://admin@h:5984');
    assert.equal(maskCredentials('http://h:5984/db'), 'http://h:5984/db');
  });
});

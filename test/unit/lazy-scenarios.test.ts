/**
 * Registering the scenarios' commands loads none of their heavy modules (issue 28's lazy
 * commands): `docbench --help` imports each scenario's cli.ts, which is commander and option
 * parsing, and no generator (faker), oracle (mingo), dialect or driver; those load when a
 * command runs. Checked on what the process really loads.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'docbench-lazy-'));
after(() => rmSync(work, { recursive: true, force: true }));

function loadedBy(args: string[]): string[] {
  const file = join(work, `imports-${args.join('-')}.txt`);
  const r = spawnSync(process.execPath, ['--import', join(root, 'test', 'support', 'record-imports.mjs'), join(root, 'bin', 'docbench.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, DOCBENCH_RECORD_IMPORTS: file },
    timeout: 60_000,
  });
  assert.equal(r.status, 0, r.stderr);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('scenario commands load lazily', () => {
  it('--help loads every scenario\'s cli.ts and no generator, oracle, dialect or driver', () => {
    const loaded = loadedBy(['--help']);
    for (const scenario of ['ecommerce', 'persons', 'file']) assert.ok(loaded.some((u) => u.endsWith(`/scenarios/${scenario}/cli.ts`)), `${scenario}/cli.ts registered`);
    const heavy = loaded.filter((u) => /@faker-js|\/mingo\/|\/node_modules\/(mongodb|nano|couchbase|cassandra-driver|ioredis|@redis)\/|\/scenarios\/[a-z]+\/(stores\/|generator|oracle|commands|run)/.test(u));
    assert.deepEqual(heavy, []);
  });
});

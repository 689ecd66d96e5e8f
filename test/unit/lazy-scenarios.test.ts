/**
 * Commands load lazily (issue 28): `docbench --help` imports each scenario's cli.ts (commander
 * and option parsing) and no generator (faker), oracle (mingo), dialect, driver, service or
 * report; `--version` no scenario at all; `status` only the local servers' own modules (a
 * store's local-target, and its local-cluster and server-config where it runs clusters; their
 * health checks may open a driver to ask a running server, never a scenario or a store
 * adapter). The CLI runs the compiled tree (dist/). Checked on what the process really loads.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DRIVER_PACKAGES } from '../../src/stores/stores.ts';

const root = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'docbench-lazy-'));
after(() => rmSync(work, { recursive: true, force: true }));

function loadedBy(args: string[]): string[] {
  const file = join(work, `imports-${args.join('-')}.txt`);
  const r = spawnSync(
    process.execPath,
    ['--import', join(root, 'test', 'support', 'record-imports.mjs'), join(root, 'bin', 'docbench.js'), ...args],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DOCBENCH_RECORD_IMPORTS: file },
      timeout: 120_000,
    },
  );
  assert.equal(r.status, 0, r.stderr);
  return [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))];
}

/** Every store's driver packages, from the STORES table. */
const DRIVERS = new RegExp(`/node_modules/(${DRIVER_PACKAGES.join('|')})/`);
/** What only a command's work needs: scenario code, the runner, the service, reports, schemas. */
const HEAVY =
  /@faker-js|\/mingo\/|\/node_modules\/(fastify|zod|hdr-histogram-js|undici|yaml)\/|\/scenarios\/[a-z]+\/(stores\/|generator|oracle|commands|run)|\/src\/(runner\/(?!interrupts|fault-policy)|service\/(?!auth|scenarios)|report\/|results\/(?!slo)|measure\/|session\/(?!target-options))/;

describe('commands load lazily', () => {
  it("--help loads every scenario's cli.ts and no generator, oracle, dialect, driver, service or report", () => {
    const loaded = loadedBy(['--help']);
    for (const scenario of ['ecommerce', 'persons', 'file'])
      assert.ok(
        loaded.some((u) => u.endsWith(`/scenarios/${scenario}/cli.js`)),
        `${scenario}/cli.js registered`,
      );
    assert.deepEqual(
      loaded.filter((u) => DRIVERS.test(u) || HEAVY.test(u)),
      [],
    );
  });

  it("--version runs the compiled tree and loads no driver and none of the commands' work", () => {
    const loaded = loadedBy(['--version']);
    assert.ok(
      loaded.some((u) => u.endsWith('/dist/src/cli/main.js')),
      'dist/src/cli/main.js',
    );
    assert.deepEqual(
      loaded.filter((u) => u.endsWith('.ts')),
      [],
      'no TypeScript source',
    );
    assert.deepEqual(
      loaded.filter((u) => DRIVERS.test(u) || HEAVY.test(u)),
      [],
    );
  });

  it('status loads no scenario code, store adapter, service or report; only a health check may open a driver, and only those two', () => {
    const loaded = loadedBy(['status']);
    assert.deepEqual(
      loaded.filter(
        (u) => HEAVY.test(u) || /\/src\/stores\/[a-z]+\/(?!local-target|local-cluster|server-config)/.test(u),
      ),
      [],
    );
    // MongoDB's and Cassandra's health checks ask a running server through the driver; no other driver loads.
    assert.deepEqual(
      loaded.filter((u) => DRIVERS.test(u) && !/\/node_modules\/(mongodb|cassandra-driver)\//.test(u)),
      [],
    );
  });
});

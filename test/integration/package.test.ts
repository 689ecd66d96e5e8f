/**
 * docbench as a web developer meets it (issue 34): the checkout packed as the registry would
 * serve it, installed into a fresh application that has nothing else, with the one store's
 * driver it benchmarks (Redis: the two clients docbench's Redis store runs on), then run there
 * through npx: `--version`, a YCSB workload against the local Redis, a scenario file of the
 * application's own (its stores from the application's docbench.config.json), and a report of
 * the results; beside them `status` and a store whose driver is missing. Each prints no warning (npm's, Node's, a
 * rebuild), exits 0 (the missing driver: one line naming the package to install, exit 2),
 * writes its files under the application's folder and nothing into the installed package.
 * The install fetches from the npm registry (through the npm cache: `--prefer-offline`).
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resultSchema } from '../../src/results/schema.ts';
import { testsStore } from '../support/stores.ts';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  peerDependencies: Record<string, string>;
};
const work = mkdtempSync(join(tmpdir(), 'docbench-package-'));
const app = join(work, 'app');
after(() => rmSync(work, { recursive: true, force: true }));

/** A warning of any kind: npm's (EBADENGINE, install scripts, deprecations), Node's, a rebuild. */
const WARNING = /npm warn|npm WARN|\(node:\d+\)|\[DEP\d+\]|Warning:|: building/;

/**
 * The environment a developer's shell has: none of the variables npm gives the test run it
 * started (its prefix, its package, its lifecycle), which would point npm at the checkout.
 */
const env = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) =>
      !(key.startsWith('npm_') || key === 'INIT_CWD' || key === 'NODE_TEST_CONTEXT') ||
      ['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig'].includes(key),
  ),
);

function sh(command: string, args: readonly string[], cwd: string, timeoutMs = 120_000) {
  const r = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: timeoutMs });
  return { code: r.status, stdout: r.stdout ?? '', stderr: r.stderr ?? '', error: r.error };
}

/**
 * `npx docbench …` in the application, as its developer types it; asserts exit 0 and no warning,
 * returns its output. `direct` runs the same installed bin without npx (which costs seconds on a
 * loaded machine), for the checks beside the user's own commands.
 */
function docbench(args: readonly string[], direct = false): string {
  const r = direct
    ? sh(join(app, 'node_modules', '.bin', 'docbench'), args, app)
    : sh('npx', ['docbench', ...args], app);
  const output = `${r.stdout}${r.stderr}`;
  assert.equal(r.code, 0, `npx docbench ${args.join(' ')}: ${r.error ?? output}`);
  assert.doesNotMatch(output, WARNING, `npx docbench ${args.join(' ')} warned`);
  return r.stdout;
}

/** Every file of a folder with its size and modification time: what a run must leave as it was. */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => {
      const s = statSync(join(dir, f));
      return `${f} ${s.size} ${s.mtimeMs}`;
    })
    .sort();
}

// The application's own scenario, as docs/ci.md has it (bench/shop.yaml), kept small.
const SHOP = `# The shop's own scenario: products by category, a customer's orders with the product joined in.
name: shop
seed: 1
collections:
  products:
    count: 100
    fields:
      title: { type: faker, method: commerce.productName }
      category: { type: enum, values: [books, games, garden, kitchen] }
      price: { type: int, min: 1, max: 500 }
    indexes: [[category, -price]]
  customers:
    count: 50
    fields:
      name: { type: faker, method: person.fullName }
  orders:
    count: 200
    fields:
      customer: { type: ref, collection: customers }
      product: { type: ref, collection: products }
      quantity: { type: int, min: 1, max: 5 }
      at: { type: date, from: 2024-01-01, to: 2024-12-31 }
    indexes: [[customer, -at]]
queries:
  category-page:
    collection: products
    filter: { category: $category }
    sort: { price: -1 }
    limit: 10
    params:
      category: { type: pick, from: products.category }
  order-history:
    collection: orders
    filter: { customer: $customer }
    sort: { at: -1 }
    limit: 5
    project: [at, product]
    join: { from: products, on: product, as: item, project: [title, price] }
    params:
      customer: { type: pick, from: orders.customer }
writes:
  change-quantity: { update: orders, set: [quantity] }
mix: { category-page: 0.5, order-history: 0.4, change-quantity: 0.1 }
run: { operationcount: 300, threadcount: 2 }
`;

/** The YCSB table of this test (`--fresh` empties it first, so a rerun starts the same). */
const TABLE = 'docbench_package_test';
const YCSB = ['-P', 'workloada', '-p', 'recordcount=300', '-p', `table=${TABLE}`, '-q'];

describe('docbench installed into an application', { skip: !testsStore('redis') && 'needs the local Redis' }, () => {
  let installed: string[] = [];

  before(() => {
    // The build the package carries is the checkout's current one (bin/docbench.js rebuilds a
    // stale one first); packing skips npm's prepack, whose clean build would pull dist/ from
    // under anything running it.
    const current = sh(process.execPath, [join(root, 'bin', 'docbench.js'), '--version'], root);
    assert.equal(current.code, 0, current.stderr);
    const pack = sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], root);
    assert.equal(pack.code, 0, pack.stderr);
    const tarball = join(work, (JSON.parse(pack.stdout) as { filename: string }[])[0]!.filename);
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), `${JSON.stringify({ name: 'shop', version: '1.0.0', private: true })}\n`);
    // As the missing-driver line says: the store's driver at the versions docbench names.
    const drivers = ['@redis/client', 'ioredis'].map((d) => `${d}@${pkg.peerDependencies[d]}`);
    const install = sh(
      'npm',
      ['install', '--save-dev', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...drivers],
      app,
      300_000,
    );
    assert.equal(install.code, 0, `npm install: ${install.error ?? install.stderr}`);
    assert.doesNotMatch(`${install.stdout}${install.stderr}`, WARNING, 'npm install warned');
    installed = snapshot(join(app, 'node_modules', 'docbench'));
  });

  it('runs its compiled build: --version, without a word on stderr', () => {
    const r = sh('npx', ['docbench', '--version'], app);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${pkg.version}\n`);
    assert.equal(r.stderr, '');
  });

  it('lists the local servers, naming what to install for the stores whose driver is missing', () => {
    const out = docbench(['status'], true);
    assert.match(out, /^redis +running /m);
    assert.match(
      out,
      new RegExp(`^mongodb +no driver +npm install --save-dev mongodb@\\${pkg.peerDependencies.mongodb}$`, 'm'),
    );
  });

  it('names the package to install when a store has no driver: one line, exit 2', () => {
    const r = sh(
      join(app, 'node_modules', '.bin', 'docbench'),
      ['run', '--store', 'cassandra', '-P', 'workloada'],
      app,
    );
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      `docbench: store cassandra: its driver is not installed (cassandra-driver): npm install --save-dev cassandra-driver@${pkg.peerDependencies['cassandra-driver']}\n`,
    );
  });

  it('loads and runs a YCSB workload against the local Redis, results in the application', () => {
    docbench(['load', '--store', 'redis', ...YCSB, '--fresh', '--out', 'results/load.json']);
    docbench(['run', '--store', 'redis', ...YCSB, '-p', 'operationcount=1000', '--out', 'results/run.json']);
    const run = resultSchema.parse(JSON.parse(readFileSync(join(app, 'results', 'run.json'), 'utf8')));
    assert.equal(run.verdict?.status, 'valid', JSON.stringify(run.verdict));
    assert.equal(run.overall.operations, 1000);
    assert.equal(run.store.name, 'redis');
  });

  it("runs the application's scenario file on the stores of its config file", () => {
    mkdirSync(join(app, 'bench'));
    writeFileSync(join(app, 'bench', 'shop.yaml'), SHOP);
    writeFileSync(join(app, 'docbench.config.json'), '{ "stores": { "redis": {} } }\n');
    docbench(['scenario', 'bench/shop.yaml', '-q', '--out-dir', 'results/shop']);
    const run = resultSchema.parse(
      JSON.parse(readFileSync(join(app, 'results', 'shop', 'redis-shop-run.json'), 'utf8')),
    );
    assert.equal(run.verdict?.status, 'valid', JSON.stringify(run.verdict));
    assert.ok(existsSync(join(app, 'results', 'shop', 'report.html')));
  });

  it('reports on the results, into the application, and has written nothing into the package', () => {
    docbench(['report', 'results', '--html', 'report.html']);
    assert.match(readFileSync(join(app, 'report.html'), 'utf8'), /^<!doctype html>/i);
    assert.deepEqual(snapshot(join(app, 'node_modules', 'docbench')), installed);
  });
});

/**
 * What the package carries (issue 34): what docbench needs at run time and no more, as
 * `npm pack --dry-run` lists it: the compiled build, the shipped workloads, example scenarios,
 * local servers' build files and Docker files, and the k6 scripts with exactly the TypeScript
 * sources they import (k6 runs TypeScript itself); no tests, build scripts or other sources.
 * Each store's driver is an optional peer dependency (the repository installs it as a
 * development dependency), the ones its folder imports; and every package of the lock file runs
 * on every Node version docbench's `engines` names, so an install prints no EBADENGINE.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { STORES } from '../../src/stores/stores.ts';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  scripts: Record<string, string>;
};

/** What a TypeScript file loads: value imports (not `import type`), side-effect and dynamic imports, resolved files. */
function imports(file: string): { relative: string[]; bare: string[] } {
  const text = readFileSync(file, 'utf8');
  const specifiers = [
    ...[...text.matchAll(/^\s*(?:import|export)\s+([^;]*?)\s+from\s+'([^']+)'/gms)]
      .filter((m) => !/^type\s/.test(m[1]!))
      .map((m) => m[2]!),
    ...[...text.matchAll(/^\s*import\s+'([^']+)'/gm)].map((m) => m[1]!),
    ...[...text.matchAll(/\b(?:import|require\.resolve)\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]!),
  ];
  return {
    relative: specifiers.filter((s) => s.startsWith('.')).map((s) => join(dirname(file), s)),
    bare: specifiers.filter((s) => !s.startsWith('.') && !s.startsWith('node:')),
  };
}

/** The npm package a bare specifier names (`@redis/client/dist/x` -> `@redis/client`). */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** Whether a file lies in one store's own folder (not the shared store contract beside them). */
const inStoreFolder = (file: string) => /^[^/]+\/.+\.ts$/.test(relative(join(root, 'src', 'stores'), file));

/** Every TypeScript file the shipped k6 scripts load, following relative imports. */
function k6Closure(): string[] {
  const scripts = [
    ...readdirSync(join(root, 'k6'))
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(root, 'k6', f)),
    // Each scenario's own k6 scripts live in its folder's k6/.
    ...readdirSync(join(root, 'scenarios'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(root, 'scenarios', d.name, 'k6')))
      .flatMap((d) =>
        readdirSync(join(root, 'scenarios', d.name, 'k6'))
          .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
          .map((f) => join(root, 'scenarios', d.name, 'k6', f)),
      ),
  ];
  const seen = new Set<string>();
  const queue = [...scripts];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...imports(file).relative);
  }
  return [...seen].map((f) => relative(root, f)).sort();
}

const packed = (
  JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8' }),
  ) as { files: { path: string }[] }[]
)[0]!.files.map((f) => f.path);

describe('the package', () => {
  it('carries the build, the shipped files and the sources k6 runs, and nothing else', () => {
    for (const file of [
      'package.json',
      'README.md',
      'bin/docbench.js',
      'dist/src/cli/main.js',
      'dist/src/runner/process-worker.js',
      'fixtures/workloads/workloada',
      'fixtures/workloads/presets/record-10kb',
      'fixtures/scenarios/blog.yaml',
      'fixtures/cassandra/pom.xml',
      'fixtures/couchbase/pom.xml',
      'fixtures/couchbase/DocbenchCouchbaseMock.java',
      'docker/compose.yaml',
      'docker/couchbase-init.sh',
      'docker/couchdb-single-node.ini',
    ])
      assert.ok(packed.includes(file), `${file} is packed`);
    const shipped =
      /^(package\.json|README\.md|bin\/docbench\.js|fixtures\/(workloads|scenarios|cassandra|couchbase)\/.+|docker\/[^/]+\.(yaml|sh|ini))$/;
    const compiled = /^dist\/.+\.js$/;
    assert.deepEqual(
      packed.filter((f) => !shipped.test(f) && !compiled.test(f) && !f.endsWith('.ts')),
      [],
      'no file beyond the build and the shipped files (no build stamp, tests, docs, build scripts or settings)',
    );
    assert.deepEqual(
      packed.filter((f) => f.endsWith('.ts')).sort(),
      k6Closure(),
      'the TypeScript sources are exactly those the k6 scripts import (package.json "files" lists them)',
    );
  });

  it('builds when packed, never when installed', () => {
    assert.equal(pkg.scripts.prepack, 'node scripts/build.mjs');
    // prepare (and install scripts) would run in the user's install: npm warns of them, and
    // the compiler is a development dependency the user does not have.
    for (const script of ['prepare', 'preinstall', 'install', 'postinstall'])
      assert.equal(pkg.scripts[script], undefined, script);
  });

  it("names each store's driver as an optional peer dependency, installed in the repository", () => {
    const drivers = new Set<string>();
    for (const [name, entry] of Object.entries(STORES)) {
      const declared = [...(('drivers' in entry ? entry.drivers : undefined) ?? [])].sort();
      // What the store's own folder imports from npm, beside docbench's dependencies, with what
      // it loads of other stores' folders (FerretDB runs on the MongoDB store's code).
      const folder = join(root, 'src', 'stores', name);
      const imported = new Set<string>();
      const pending = readdirSync(folder, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .map((f) => join(folder, f));
      const seen = new Set(pending);
      for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
        const loaded = imports(file);
        for (const specifier of loaded.bare) imported.add(packageOf(specifier));
        for (const next of loaded.relative)
          if (inStoreFolder(next) && !seen.has(next)) {
            seen.add(next);
            pending.push(next);
          }
      }
      const own = [...imported].filter((p) => pkg.dependencies[p] === undefined).sort();
      assert.deepEqual(declared, own, `${name}: its drivers in the STORES table are the packages its folder imports`);
      for (const driver of declared) drivers.add(driver);
    }
    assert.deepEqual(Object.keys(pkg.peerDependencies).sort(), [...drivers].sort());
    for (const driver of drivers) {
      assert.equal(pkg.peerDependenciesMeta[driver]?.optional, true, `${driver} is an optional peer`);
      assert.equal(pkg.devDependencies[driver], pkg.peerDependencies[driver], `${driver}: the repository's own`);
      assert.equal(pkg.dependencies[driver], undefined, `${driver} is not installed for every user`);
    }
  });

  it('depends on nothing it does not import, but one pin', () => {
    /** Dependencies docbench does not import itself, and why they are there. */
    const pins: Record<string, string> = {
      // fastify's, at the version before cookie 2 (whose engines are Node >= 22).
      'light-my-request': 'pinned for fastify',
    };
    const imported = new Set<string>();
    for (const dir of ['src', 'scenarios'])
      for (const file of readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' }).filter((f) =>
        f.endsWith('.ts'),
      ))
        for (const specifier of imports(join(root, dir, file)).bare) imported.add(packageOf(specifier));
    for (const dependency of Object.keys(pkg.dependencies))
      assert.ok(imported.has(dependency) || pins[dependency] !== undefined, `${dependency} is imported`);
    for (const pin of Object.keys(pins)) assert.ok(pkg.dependencies[pin], `${pin} is a dependency`);
  });

  it("installs without EBADENGINE on every Node version of docbench's engines", () => {
    // semver comes with npm's own dependencies of the tree (fastify's); typed here for what is used.
    const semver = createRequire(import.meta.url)('semver') as { subset(sub: string, dom: string): boolean };
    const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    assert.equal((lock.packages['']?.engines as { node?: string } | undefined)?.node, pkg.engines.node);
    const narrower = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !Array.isArray(p.engines) && p.engines?.node !== undefined)
      .filter(([, p]) => !semver.subset(pkg.engines.node, (p.engines as { node: string }).node))
      .map(([path, p]) => `${path}@${p.version}: ${(p.engines as { node: string }).node}`);
    assert.deepEqual(narrower, [], `every package runs on ${pkg.engines.node}`);
  });
});

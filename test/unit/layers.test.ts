/**
 * The layers of docs/architecture.md, checked on the import graph: imports point down only. The entry
 * points (cli/, service/, study/) import none of each other's modules except as listed, and
 * nothing below them (session/, scenarios/, stores/, …) imports an entry point. Every static
 * `from '…'` and every dynamic `import('…')` of a relative path counts.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The repository paths a module imports (relative specifiers only: packages are not layers). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'(\.[^']+)'/gm)].map((m) => m[1]!);
  return specifiers.map((s) => relative(ROOT, resolve(ROOT, dirname(file), s)));
}

/** Modules under `from` that import something under `forbidden`, as "module -> import" lines. */
function violations(from: readonly string[], forbidden: readonly string[]): string[] {
  return from.flatMap((dir) =>
    sources(dir).flatMap((file) =>
      importsOf(file)
        .filter((target) => forbidden.some((f) => target.startsWith(`${f}/`)))
        .map((target) => `${file} -> ${target}`),
    ),
  );
}

describe('layers: imports point down only', () => {
  it('no module under src/service, src/study, src/capacity, src/metrics, src/session, src/client or scenarios/ imports the CLI', () => {
    assert.deepEqual(
      violations(
        ['src/service', 'src/study', 'src/capacity', 'src/metrics', 'src/session', 'src/client', 'scenarios'],
        ['src/cli'],
      ),
      [],
    );
  });
  it('the CLI reaches the runner only through the client layer (src/client)', () => {
    assert.deepEqual(violations(['src/cli'], ['src/runner']), []);
  });
  it('the client layer imports no entry point and no scenario', () => {
    assert.deepEqual(
      violations(['src/client'], ['src/cli', 'src/service', 'src/study', 'src/capacity', 'scenarios']),
      [],
    );
  });
  it('the session layer imports no entry point, no scenario and not the client layer above it', () => {
    assert.deepEqual(violations(['src/session'], ['src/service', 'src/study', 'src/client', 'scenarios']), []);
  });
  it('stores, results, measurements, the runner and workloads import no entry point, session, client or scenario', () => {
    assert.deepEqual(
      violations(
        ['src/stores', 'src/results', 'src/measure', 'src/runner', 'src/workload', 'src/common', 'src/metrics'],
        ['src/cli', 'src/service', 'src/study', 'src/capacity', 'src/session', 'src/client', 'scenarios'],
      ),
      [],
    );
  });
  it('the statistics are pure: src/stats imports nothing of docbench outside itself', () => {
    assert.deepEqual(
      sources('src/stats').flatMap((file) =>
        importsOf(file)
          .filter((target) => !target.startsWith('src/stats/'))
          .map((target) => `${file} -> ${target}`),
      ),
      [],
    );
  });
  it("a store's errors.ts imports the error vocabulary alone: no driver, no other module", () => {
    const errorFiles = sources('src/stores').filter((f) => f.endsWith('/errors.ts'));
    assert.ok(errorFiles.length >= 6, errorFiles.join(', '));
    for (const file of errorFiles) {
      const specifiers = [
        ...readFileSync(join(ROOT, file), 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+)'([^']+)'/gm),
      ];
      assert.deepEqual(
        specifiers.map((m) => relative(ROOT, resolve(ROOT, dirname(file), m[1]!))),
        ['src/measure/error-facts.ts'],
        file,
      );
    }
  });
  it('the checker sees imports (a module known to import the session layer)', () => {
    assert.ok(importsOf('src/service/server.ts').includes('src/session/store-session.ts'));
  });
});

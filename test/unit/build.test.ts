/**
 * bin/docbench.js runs the compiled tree and never a stale one: in a small project laid out like
 * docbench's checkout (bin/, scripts/build.mjs, src/, a tsconfig.build.json), the first start
 * builds, a start after a source's content changed rebuilds (one line on stderr saying why), a
 * current build starts without a word whatever the files' times say, and where no compiler is
 * installed a stale build is refused in one line, exit 2. Laid out like an installed package
 * (no tsconfig.build.json, no build script), it runs the build it has and never rebuilds.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const project = mkdtempSync(join(tmpdir(), 'docbench-build-'));
after(() => rmSync(project, { recursive: true, force: true }));

for (const dir of ['bin', 'scripts', 'src/cli', 'scenarios', 'k6/lib'])
  mkdirSync(join(project, dir), { recursive: true });
copyFileSync(join(root, 'bin', 'docbench.js'), join(project, 'bin', 'docbench.js'));
copyFileSync(join(root, 'scripts', 'build.mjs'), join(project, 'scripts', 'build.mjs'));
symlinkSync(join(root, 'node_modules'), join(project, 'node_modules'));
writeFileSync(join(project, 'package.json'), '{ "type": "module" }\n');
writeFileSync(
  join(project, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      target: 'es2022',
      module: 'nodenext',
      strict: true,
      types: ['node'],
      allowImportingTsExtensions: true,
      noEmit: true,
    },
  }),
);
writeFileSync(
  join(project, 'tsconfig.build.json'),
  JSON.stringify({
    extends: './tsconfig.json',
    compilerOptions: { noEmit: false, outDir: 'dist', rootDir: '.', rewriteRelativeImportExtensions: true },
    include: ['src'],
  }),
);
const mainSource = join(project, 'src', 'cli', 'main.ts');
const writeMain = (answer: string) =>
  writeFileSync(
    mainSource,
    `import { answer } from './answer.ts';\nexport async function main(): Promise<number> { process.stdout.write(answer('${answer}')); return 0; }\n`,
  );
writeFileSync(
  join(project, 'src', 'cli', 'answer.ts'),
  'export const answer = (text: string): string => `${text}\\n`;\n',
);

const start = () =>
  spawnSync(process.execPath, [join(project, 'bin', 'docbench.js')], {
    cwd: project,
    encoding: 'utf8',
    timeout: 120_000,
  });
/** A modification time later than any build so far (file systems with coarse clocks included). */
let later = Date.now() / 1000 + 10;
const touch = (file: string) => utimesSync(file, later, (later += 10));

describe('the compiled tree is never stale', () => {
  it('builds on the first start', () => {
    writeMain('one');
    const r = start();
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'one\n');
    assert.match(r.stderr, /^docbench: docbench is not built: building/);
  });

  it('starts without a word when the build is current', () => {
    const r = start();
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'one\n');
    assert.equal(r.stderr, '');
  });

  it('rebuilds after a source changed, and after one was added', () => {
    writeMain('two');
    let r = start();
    assert.equal(r.stdout, 'two\n', r.stderr);
    assert.match(r.stderr, /sources changed since the last build: building/);
    writeFileSync(join(project, 'src', 'extra.ts'), 'export const extra = 1;\n');
    r = start();
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stderr, /added or removed since the last build: building/);
  });

  it('does not rebuild for a newer modification time alone (a checkout, a copy, an unpacking)', () => {
    touch(mainSource);
    writeMain('two'); // the same content, written anew
    const r = start();
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'two\n');
    assert.equal(r.stderr, '');
  });

  it('refuses a stale build in one line where no compiler is installed', () => {
    rmSync(join(project, 'node_modules'));
    writeMain('three');
    const r = start();
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'docbench: sources changed since the last build: run `npm run build`\n');
  });

  it('runs an installed copy as it was built: no build settings or script beside it, other sources, no word', () => {
    rmSync(join(project, 'tsconfig.build.json'));
    rmSync(join(project, 'scripts'), { recursive: true });
    writeMain('four');
    const r = start();
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, 'two\n');
    assert.equal(r.stderr, '');
  });

  it('says in one line when an installed copy has no build', () => {
    rmSync(join(project, 'dist'), { recursive: true });
    const r = start();
    assert.equal(r.status, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'docbench: this copy has no compiled build (dist/ is missing): install the package again\n');
  });
});

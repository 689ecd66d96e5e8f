/**
 * The docs' relative links resolve: every `[text](target)` and `![alt](target)` in the
 * repository's Markdown files (README.md, docs/, and the READMEs beside the code) that is not a
 * URL names a file or folder that exists, and an `#anchor` names a heading of the page it points
 * to, slugged as GitHub slugs it. Pages move and sections are renamed; a reader should never land
 * on a missing page or the top of the wrong one. Links inside code (fenced blocks, `code spans`)
 * are not links and are skipped.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** Folders that hold no documentation of the repository's own. */
const SKIPPED = new Set(['node_modules', 'dist', 'results', '.git']);

function markdownFiles(dir = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(ROOT, dir))) {
    if (SKIPPED.has(name)) continue;
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) out.push(...markdownFiles(path));
    else if (name.endsWith('.md')) out.push(path);
  }
  return out;
}

/** The page's lines outside fenced code blocks, with code spans blanked. */
function proseLines(text: string): string[] {
  let fence: string | undefined;
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      lines.push('');
      continue;
    }
    lines.push(fence === undefined ? line.replace(/`[^`]*`/g, '``') : '');
  }
  return lines;
}

/** GitHub's anchor for a heading: the text without its markup, lower-cased, punctuation dropped, spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorsCache = new Map<string, Set<string>>();

/** The anchors of a page: its headings' slugs (a repeated one numbered as GitHub numbers it) and explicit ids. */
function anchorsOf(file: string): Set<string> {
  let anchors = anchorsCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  const text = readFileSync(join(ROOT, file), 'utf8');
  const raw = text.split('\n');
  proseLines(text).forEach((line, i) => {
    // A heading outside code; its text is the raw line's (code spans are blanked in `line`).
    if (!/^#{1,6}\s/.test(line)) return;
    const base = slug(/^#{1,6}\s+(.*?)\s*#*\s*$/.exec(raw[i]!)![1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors!.add(n === 0 ? base : `${base}-${n}`);
  });
  for (const m of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]!);
  anchorsCache.set(file, anchors);
  return anchors;
}

/** Each relative link of a page that does not resolve, as "file:line: target (why)". */
function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  proseLines(readFileSync(join(ROOT, file), 'utf8')).forEach((line, i) => {
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
      const hash = target.indexOf('#');
      const path = decodeURIComponent(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = path === '' ? file : relative(ROOT, resolve(ROOT, dirname(file), path));
      const where = `${file}:${i + 1}: ${target}`;
      if (!existsSync(join(ROOT, resolved))) broken.push(`${where} (no such file: ${resolved})`);
      else if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
        broken.push(`${where} (no heading #${anchor} in ${resolved})`);
    }
  });
  return broken;
}

describe('docs: relative links resolve', () => {
  const files = markdownFiles();
  it('finds the pages (README.md and docs/)', () => {
    assert.ok(files.includes('README.md') && files.some((f) => f.startsWith('docs/')), files.join(', '));
  });
  it('every relative link names an existing file, and every anchor a heading of it', () => {
    assert.deepEqual(files.flatMap(brokenLinks), []);
  });
  it('the slugs are GitHub’s (a heading with code, punctuation and a link)', () => {
    assert.equal(
      slug('Every figure true: percentiles and the verdict'),
      'every-figure-true-percentiles-and-the-verdict',
    );
    assert.equal(slug('What `compare` prints'), 'what-compare-prints');
    assert.equal(slug("Studies: each paper's design in one command"), 'studies-each-papers-design-in-one-command');
    assert.equal(
      slug('E-commerce: pagination and JOIN (Altoros 2022, YCSB-JSON)'),
      'e-commerce-pagination-and-join-altoros-2022-ycsb-json',
    );
    assert.equal(slug('See [the manual](docs/manual.md) now'), 'see-the-manual-now');
  });
});

/**
 * A report as a person sees it: rendered by headless Chromium (Debian's `chromium`), with no
 * console error, no network request (the page is self-contained), every chart drawn (its canvas
 * holds ink), and a screenshot of a chart region that is not blank. Skipped, saying why, only
 * where Chromium is not installed outside CI; CI installs it (.ci/run).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { inflateSync } from 'node:zlib';
import { writeReports } from '../../src/report/report-files.ts';
import type { Result } from '../../src/results/schema.ts';
import { canvasIds, chromiumPath, CHROMIUM_CANDIDATES, inkShare, openReport } from '../support/browser.ts';
import { runDocbench } from '../support/cli.ts';
import { syntheticResult } from '../support/synthetic-results.ts';

const dir = mkdtempSync(join(tmpdir(), 'docbench-browser-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const missing = chromiumPath() === undefined;
if (missing && process.env.CI)
  throw new Error(`CI must install chromium (.ci/run): none at ${CHROMIUM_CANDIDATES.join(', ')}`);
const skip = missing
  ? `chromium is not installed (apt-get install -y chromium); looked at ${CHROMIUM_CANDIDATES.join(', ')}`
  : false;

/** Distinct colours in a PNG's first rows, decoded by hand (8-bit RGB/RGBA, no interlace): a blank region has one. */
function distinctColours(png: Buffer, rows: number): number {
  const width = png.readUInt32BE(16);
  const colourType = png[25]!;
  const channels = colourType === 6 ? 4 : 3;
  const chunks: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.toString('ascii', at + 4, at + 8) === 'IDAT') chunks.push(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(chunks));
  const stride = width * channels;
  const colours = new Set<string>();
  let previous = Buffer.alloc(stride);
  for (let y = 0; y < rows && (y + 1) * (stride + 1) <= raw.length; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const left = i >= channels ? line[i - channels]! : 0;
      const up = previous[i]!;
      const upLeft = i >= channels ? previous[i - channels]! : 0;
      const paeth = () => {
        const p = left + up - upLeft;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)];
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft;
      };
      const add = [0, left, up, (left + up) >> 1, paeth()][filter]!;
      line[i] = (line[i]! + add) & 0xff;
    }
    for (let x = 0; x < width; x++) colours.add(line.subarray(x * channels, x * channels + 3).toString('hex'));
    previous = line;
  }
  return colours.size;
}

describe('report in headless Chromium', { skip }, () => {
  const results: Result[] = [];
  for (const threads of [1, 2]) {
    results.push(syntheticResult({ store: 'redis', threads, repetition: 1, latencyMs: 0.4 }));
    results.push(syntheticResult({ store: 'redis', threads, repetition: 2, seed: 2, latencyMs: 0.5 }));
    results.push(
      syntheticResult({ store: 'couchdb', standIn: 'pouchdb-server', threads, repetition: 1, seed: 3, latencyMs: 20 }),
    );
  }

  it('renders without console errors or network requests, and every chart draws', async () => {
    const html = join(dir, 'report.html');
    writeReports(results, { html });
    const report = await openReport(html);
    try {
      assert.deepEqual(report.problems, []);
      assert.ok(report.charts.expected >= 5, `charts expected: ${report.charts.expected}`);
      assert.equal(report.charts.drawn, report.charts.expected);
      const ids = await canvasIds(report.page);
      assert.equal(ids.length, report.charts.expected);
      for (const id of ids) assert.ok((await inkShare(report.page, id)) > 0.02, `chart ${id} drew something`);
      const shot = join(dir, 'first-chart.png');
      await report.page.locator('canvas').first().screenshot({ path: shot });
      assert.ok(statSync(shot).size > 5000);
      assert.ok(distinctColours(readFileSync(shot), 200) > 20, 'the first chart region is not blank');
      const text = (await report.page.evaluate('document.body.innerText')) as string;
      // The machine, versions and stand-ins once, at the top, in the page's own text size.
      assert.match(text, /Stand-ins\s+couchdb = pouchdb-server \S+: not the real products/);
      assert.match(text, /Machine\s+\d+ × /);
      const size = (await report.page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.context dd')).fontSize)",
      )) as number;
      assert.ok(size >= 14, `the header's text is legible (${size}px)`);
    } finally {
      await report.close();
    }
  });

  it('draws repeated capacity searches: the curves with their budget, the tables, and the per-operation series at the edge', async () => {
    const out = join(dir, 'capacity');
    const run = runDocbench(
      [
        'capacity',
        '--stores',
        'basic',
        '-P',
        'workloada',
        '-p',
        'recordcount=200',
        '--slo',
        'p99<=1s',
        '--start',
        '100',
        '--max-steps',
        '2',
        '--min-seconds',
        '2',
        '--max-seconds',
        '2',
        '--warmup',
        '0',
        '--threads',
        '4',
        '--repetitions',
        '2',
        '-q',
        '--out-dir',
        out,
      ],
      { timeoutMs: 120_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    const report = await openReport(join(out, 'report.html'));
    try {
      assert.deepEqual(report.problems, []);
      assert.equal(report.charts.drawn, report.charts.expected);
      const ids = await canvasIds(report.page);
      assert.ok(
        ids.some((id) => id.startsWith('capacity-')),
        'the capacity curve',
      );
      assert.ok(
        ids.some((id) => id.startsWith('opseries-latency-')),
        'the per-operation series',
      );
      for (const id of ids) assert.ok((await inkShare(report.page, id)) > 0.02, `chart ${id} drew something`);
      const text = (await report.page.evaluate('document.body.innerText')) as string;
      assert.match(text, /highest rate that held \(ops\/s\)/);
      assert.match(text, /capacity \(ops\/s\): median \[min–max\]/, 'two searches: the median with its range');
    } finally {
      await report.close();
    }
  });
});

/**
 * Live metrics (`--metrics-port`): a scrape taken while a run goes is valid exposition by
 * Prometheus's own `promtool check metrics` (Debian's `prometheus` package; .ci/run installs it),
 * OpenMetrics is served to a scraper that asks for it, and once the run is over the metrics carry
 * its verdict and the very figures of its result file: the same counts, and the same percentiles
 * (the one percentile function) as the summary's quantiles. On BasicDB, in two worker processes,
 * so what is scraped is every process's.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import { resultSchema } from '../../src/results/schema.ts';

const root = join(import.meta.dirname, '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'docbench-metrics-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const hasPromtool = spawnSync('promtool', ['--version']).status === 0;

async function scrape(url: string, accept?: string): Promise<{ type: string; body: string } | undefined> {
  try {
    const response = await fetch(url, accept ? { headers: { accept } } : {});
    return { type: response.headers.get('content-type') ?? '', body: await response.text() };
  } catch {
    return undefined;
  }
}

/** A sample's value: `name{labels} value`, the labels given as a substring of its label set. */
function sample(body: string, name: string, labels: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe(
  'live metrics',
  { skip: hasPromtool ? false : 'promtool not installed (Debian: apt-get install prometheus)' },
  () => {
    it("serves valid exposition mid-run (promtool check metrics), and the verdict and the result's figures at the end", async () => {
      const out = join(dir, 'run.json');
      const child = spawn(
        process.execPath,
        [
          join(root, 'bin', 'docbench.js'),
          'run',
          '--store',
          'basic',
          '-P',
          'workloada',
          '-p',
          'recordcount=500',
          '-p',
          'operationcount=0',
          '-p',
          'maxexecutiontime=6',
          '-p',
          'target=1500',
          '--threads',
          '8',
          '--processes',
          '2',
          '-q',
          '--metrics-port',
          '0',
          '--metrics-linger',
          '20',
          '--out',
          out,
        ],
        { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      try {
        let url: string | undefined;
        for (let i = 0; i < 300 && url === undefined; i++) {
          await sleep(100);
          url = /metrics: (\S+)/.exec(stderr)?.[1];
        }
        assert.ok(url, `the metrics address is printed (stderr: ${stderr})`);
        assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, 'on loopback unless told otherwise');
        // Mid-run: once operations are counted, and while the run still says it is running.
        let mid: string | undefined;
        for (let i = 0; i < 300 && mid === undefined; i++) {
          await sleep(100);
          const got = await scrape(url);
          if (got && /docbench_operations_total\{/.test(got.body) && /docbench_run_running\{[^}]*\} 1/.test(got.body))
            mid = got.body;
        }
        assert.ok(mid, 'a scrape taken while the run goes');
        const check = spawnSync('promtool', ['check', 'metrics'], { input: mid, encoding: 'utf8' });
        assert.equal(check.status, 0, `promtool check metrics: ${check.stdout}${check.stderr}`);
        for (const family of [
          'docbench_operations_total',
          'docbench_latency_hdr_seconds',
          'docbench_latency_seconds_bucket',
          'docbench_client_cpu_seconds_total',
          'docbench_run_running',
        ])
          assert.match(mid, new RegExp(`^${family}`, 'm'), family);
        const om = await scrape(url, 'application/openmetrics-text; version=1.0.0,text/plain;version=0.0.4;q=0.5');
        assert.match(om!.type, /^application\/openmetrics-text; version=1\.0\.0/);
        assert.match(om!.body, /# TYPE docbench_operations counter\n/);
        assert.ok(om!.body.endsWith('# EOF\n'));
        // The end: the verdict, and the result file's own figures.
        let end: string | undefined;
        for (let i = 0; i < 600 && end === undefined; i++) {
          await sleep(100);
          const got = await scrape(url);
          if (got && /docbench_run_verdict\{/.test(got.body)) end = got.body;
        }
        assert.ok(end, 'the verdict once the run is over');
        assert.equal(sample(end, 'docbench_run_verdict', 'verdict="valid"'), 1);
        assert.equal(sample(end, 'docbench_run_running', 'phase="run"'), 0);
        assert.equal(spawnSync('promtool', ['check', 'metrics'], { input: end }).status, 0);
        const result = resultSchema.parse(JSON.parse(readFileSync(out, 'utf8')));
        for (const op of ['READ', 'UPDATE']) {
          assert.equal(
            sample(end, 'docbench_operations_total', `operation="${op}",status="OK"`),
            result.operations.find((o) => o.name === op)!.returns!.OK,
            `${op} OK calls`,
          );
          const intended = result.operations.find((o) => o.name === `Intended-${op}`)!;
          const labels = `operation="${op}",measure="intended",outcome="ok"`;
          assert.equal(sample(end, 'docbench_latency_hdr_seconds_count', labels), intended.latency.operations);
          assert.equal(
            sample(end, 'docbench_latency_seconds_bucket', `${labels},le="+Inf"`),
            intended.latency.operations,
          );
          for (const [q, p] of [
            ['0.5', '50'],
            ['0.99', '99'],
            ['0.999', '99.9'],
          ] as const) {
            assert.equal(
              Math.round(sample(end, 'docbench_latency_hdr_seconds', `${labels},quantile="${q}"`)! * 1e6),
              intended.latency.percentilesUs[p],
              `${op} p${p}: the same figure as the result file`,
            );
          }
        }
      } finally {
        if (child.exitCode === null) child.kill('SIGTERM');
        await exited;
      }
    });
  },
);

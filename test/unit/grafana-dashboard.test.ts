/**
 * The Grafana dashboard shipped beside the live metrics (docs/grafana/docbench-dashboard.json):
 * valid JSON, and every metric its queries name is one the exposition serves, so a rename in
 * the metrics cannot leave the dashboard drawing nothing.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { IntervalRows } from '../../src/measure/interval-rows.ts';
import { renderMetrics } from '../../src/metrics/exposition.ts';
import { LiveMetrics } from '../../src/metrics/live-metrics.ts';
import { RunControl } from '../../src/runner/run-control.ts';

const file = join(import.meta.dirname, '..', '..', 'docs', 'grafana', 'docbench-dashboard.json');

describe('the Grafana dashboard', () => {
  it('queries only metrics that docbench serves', () => {
    const dashboard = JSON.parse(readFileSync(file, 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const metrics = new LiveMetrics();
    const labels = { store: 'redis', workload: 'workloada', phase: 'run' as const };
    const observer = metrics.start(labels, 1000);
    const rows = new IntervalRows();
    rows.histogramOf('Intended-READ').recordValue(900);
    rows.addCount('READ', 'OK', 1);
    rows.addCount('READ', 'TIMEOUT', 1);
    observer.second(rows, true, new RunControl());
    metrics.finish(labels, 'valid', 1000);
    const served = new Set(
      renderMetrics(metrics, 'prometheus')
        .split('\n')
        .filter((l) => l !== '' && !l.startsWith('#'))
        .map((l) => /^[a-z_]+/.exec(l)![0]),
    );
    const named = dashboard.panels.flatMap((p) => p.targets.flatMap((t) => t.expr.match(/docbench_[a-z_]+/g) ?? []));
    assert.ok(named.length >= 7);
    for (const name of named) assert.ok(served.has(name), `${name} is served`);
  });
});

/**
 * `--metrics-port`, `--metrics-host`, `--metrics-linger`: live metrics while a command runs
 * (src/metrics/), on the commands that run workloads (load, run, capacity).
 */
import { InvalidArgumentError, type Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LiveMetrics } from '../metrics/live-metrics.ts';
import { interrupts } from '../common/interrupts.ts';
import { nonNegativeNumber } from '../common/option-parsers.ts';

export interface MetricsFlags {
  metricsPort?: number;
  metricsHost: string;
  metricsLinger: number;
}

const port = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new InvalidArgumentError(
      `--metrics-port expects a port number from 0 to 65535 (0: any free port), got "${value}"`,
    );
  return n;
};

export function addMetricsOptions(command: Command): Command {
  return command
    .option(
      '--metrics-port <port>',
      'serve live metrics (OpenMetrics / Prometheus text) at http://<host>:<port>/metrics while the command runs',
      port,
    )
    .option('--metrics-host <host>', 'address the live metrics listen on', '127.0.0.1')
    .option(
      '--metrics-linger <s>',
      'keep serving the metrics this long after the end, so a scrape sees the verdict',
      nonNegativeNumber('--metrics-linger'),
      0,
    );
}

/** Run `body` with live metrics when asked for (undefined otherwise), serving them until it ends and `--metrics-linger` more. */
export async function withMetrics<T>(
  flags: MetricsFlags,
  body: (metrics: LiveMetrics | undefined) => Promise<T>,
): Promise<T> {
  if (flags.metricsPort === undefined) return body(undefined);
  const [{ LiveMetrics }, { startMetricsServer }] = await Promise.all([
    import('../metrics/live-metrics.ts'),
    import('../metrics/metrics-server.ts'),
  ]);
  const metrics = new LiveMetrics();
  const server = await startMetricsServer(metrics, flags.metricsPort, flags.metricsHost);
  process.stderr.write(`metrics: ${server.url}\n`);
  try {
    return await body(metrics);
  } finally {
    if (flags.metricsLinger > 0 && interrupts.signal === undefined) await sleep(flags.metricsLinger * 1000);
    await server.close();
  }
}

/**
 * The live metrics endpoint: `GET /metrics` on 127.0.0.1 unless told otherwise, answered in
 * OpenMetrics when the scraper asks for it (Prometheus does, in its Accept header) and in
 * Prometheus's text format otherwise. It only reads what the run's observer gathered each second,
 * so a scrape costs the run nothing but the exposition itself.
 */
import { createServer, type Server } from 'node:http';
import { UserError } from '../common/user-error.ts';
import { CONTENT_TYPES, renderMetrics, type ExpositionFormat } from './exposition.ts';
import type { LiveMetrics } from './live-metrics.ts';

export interface MetricsServer {
  /** Where it listens: `http://127.0.0.1:9464/metrics`. */
  url: string;
  close(): Promise<void>;
}

function formatFor(accept: string | undefined): ExpositionFormat {
  return accept !== undefined && accept.includes('application/openmetrics-text') ? 'openmetrics' : 'prometheus';
}

/** Serve `metrics` on host:port (port 0: any free one); a port in use is a one-line user error. */
export async function startMetricsServer(
  metrics: LiveMetrics,
  port: number,
  host = '127.0.0.1',
): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    if (path !== '/metrics') {
      response
        .writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
        .end('docbench serves its live metrics at /metrics\n');
      return;
    }
    const format = formatFor(request.headers.accept);
    const body = renderMetrics(metrics, format);
    response
      .writeHead(200, { 'content-type': CONTENT_TYPES[format], 'content-length': Buffer.byteLength(body) })
      .end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL'
          ? new UserError(
              `--metrics-port ${port}: cannot listen on ${host}:${port} (${error.code}); choose another port or host`,
            )
          : error,
      );
    });
    server.listen(port, host, () => resolve());
  });
  // The metrics never keep the process alive on their own.
  server.unref();
  const address = server.address();
  const bound = typeof address === 'object' && address !== null ? address.port : port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${bound}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The yardstick of bench/k6-overhead.ts: the plainest k6 script there is, one GET per iteration
 * with k6's defaults (body read as text, URL as the request's name), against a trivial endpoint.
 * It records the same measured window as docbench's scripts (from the end of setup() to the
 * start of teardown()), so the bench divides k6's CPU by requests over the same kind of span.
 * With RATE, the open model (constant-arrival-rate) with VUS allocated up front and no more.
 *
 *   k6 run -e BASE_URL=http://127.0.0.1:PORT -e VUS=8 -e DURATION=15s [-e RATE=2000] -e RESULT_FILE=plain.json bench/k6-plain-get.ts
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';

const windowMs = new Counter('window_ms');
const url = `${__ENV.BASE_URL}/usertable/user1`;

const vus = Number(__ENV.VUS ?? 8);
const duration = __ENV.DURATION ?? '15s';

export const options = {
  scenarios: {
    plain: __ENV.RATE
      ? {
          executor: 'constant-arrival-rate',
          rate: Number(__ENV.RATE),
          timeUnit: '1s',
          duration,
          preAllocatedVUs: vus,
          maxVUs: vus,
        }
      : { executor: 'constant-vus', vus, duration },
  },
  summaryTrendStats: ['avg', 'count'],
};

export function setup(): { startedAt: number } {
  return { startedAt: Date.now() };
}

export default function (): void {
  http.get(url);
}

export function teardown(data: { startedAt: number }): void {
  windowMs.add(Date.now() - data.startedAt);
}

interface Summary {
  metrics: Record<string, { values: Record<string, number> } | undefined>;
  setup_data?: { startedAt: number };
}

export function handleSummary(data: Summary): Record<string, string> {
  const window = data.metrics.window_ms?.values.count ?? 0;
  const startedAt = data.setup_data?.startedAt ?? 0;
  const result = {
    requests: data.metrics.http_reqs?.values.count ?? 0,
    failed: data.metrics.http_req_failed?.values.passes ?? 0,
    dropped: data.metrics.dropped_iterations?.values.count ?? 0,
    startedAt,
    endedAt: startedAt + window,
  };
  return { [__ENV.RESULT_FILE ?? 'plain-get.json']: JSON.stringify(result) };
}

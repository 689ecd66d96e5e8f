/**
 * The k6 script of bench/service-overhead.ts, run unchanged against `docbench serve` and against
 * the bare Fastify app (bench/bare-service.ts): YCSB's REST routes (GET /usertable/:key, and with
 * UPDATE_SHARE a PUT /usertable/:key of one field), keys drawn uniformly from user0 … user<N-1>
 * (the bench loads them with insertorder=ordered), in the open model (constant-arrival-rate,
 * VUS allocated up front and no more). It records the measured window as k6-plain-get.ts does
 * (end of setup() to start of teardown()), so the bench divides each service's CPU by the
 * requests of the same span.
 *
 *   k6 run -e BASE_URL=… -e RECORDS=1000 -e VUS=16 -e RATE=1000 -e DURATION=15s [-e UPDATE_SHARE=0.5] -e RESULT_FILE=r.json bench/k6-service-ops.ts
 */
import http from 'k6/http';
import { Counter } from 'k6/metrics';

const windowMs = new Counter('window_ms');
const notOk = new Counter('not_ok');
const base = `${__ENV.BASE_URL}/usertable/user`;
const records = Number(__ENV.RECORDS ?? 1000);
const updateShare = Number(__ENV.UPDATE_SHARE ?? 0);
const vus = Number(__ENV.VUS ?? 16);
const duration = __ENV.DURATION ?? '15s';
const updateParams = { headers: { 'content-type': 'application/json' } };
const updateBody = JSON.stringify({ field0: 'x'.repeat(100) });

export const options = {
  scenarios: {
    ops: {
      executor: 'constant-arrival-rate',
      rate: Number(__ENV.RATE ?? 1000),
      timeUnit: '1s',
      duration,
      preAllocatedVUs: vus,
      maxVUs: vus,
    },
  },
  discardResponseBodies: true,
  summaryTrendStats: ['avg', 'count'],
};

export function setup(): { startedAt: number } {
  return { startedAt: Date.now() };
}

export default function (): void {
  const url = `${base}${Math.floor(Math.random() * records)}`;
  const update = updateShare > 0 && Math.random() < updateShare;
  const response = update ? http.put(url, updateBody, updateParams) : http.get(url);
  if (response.status !== (update ? 204 : 200)) notOk.add(1);
}

export function teardown(data: { startedAt: number }): void {
  windowMs.add(Date.now() - data.startedAt);
}

interface Summary {
  metrics: Record<string, { values: Record<string, number> } | undefined>;
  setup_data?: { startedAt: number };
}

export function handleSummary(data: Summary): Record<string, string> {
  const startedAt = data.setup_data?.startedAt ?? 0;
  const result = {
    requests: data.metrics.http_reqs?.values.count ?? 0,
    notOk: data.metrics.not_ok?.values.count ?? 0,
    dropped: data.metrics.dropped_iterations?.values.count ?? 0,
    startedAt,
    endedAt: startedAt + (data.metrics.window_ms?.values.count ?? 0),
  };
  return { [__ENV.RESULT_FILE ?? 'service-ops.json']: JSON.stringify(result) };
}

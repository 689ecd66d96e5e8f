/**
 * The service's own cost: requests answered and CPU time spent, so an end-to-end result can say
 * how much of each request's time went to the service rather than to the store.
 *
 * Per-request CPU cannot be measured around each request (requests interleave on the event
 * loop), so the service keeps totals: cumulative CPU of the process(es) and a request count.
 * A client takes a snapshot before and after its run; CPU difference / request difference is the
 * service's CPU per request. Counters are cumulative and never reset, so several clients can
 * measure the same service without disturbing each other.
 */

/** One process's counters. */
export interface ProcessStats {
  pid: number;
  /** Requests answered on the API routes (not /_docbench/*), by route and status code. */
  requests: number;
  routes: Record<string, RouteStats>;
  /** Cumulative CPU of this process since it started, in µs. */
  cpuUserUs: number;
  cpuSystemUs: number;
  /** Of that CPU, what went to drawing workload decisions for clients (/_docbench/ycsb/plan), in µs. */
  internalCpuUs: number;
}

export interface RouteStats {
  requests: number;
  /** HTTP status code -> count. */
  statuses: Record<string, number>;
}

/** What GET /_docbench/stats answers: the sum over all processes of the service. */
export interface ServiceStats {
  /** When the snapshot was taken (ms since the epoch). */
  at: number;
  workers: number;
  requests: number;
  routes: Record<string, RouteStats>;
  cpuUserUs: number;
  cpuSystemUs: number;
  internalCpuUs: number;
  processes: ProcessStats[];
}

export class RequestCounter {
  private requests = 0;
  private internalCpuUs = 0;
  private readonly routes = new Map<string, RouteStats>();

  /** CPU spent for clients outside the API (drawing a plan block), kept apart from the API's. */
  addInternalCpu(us: number): void {
    this.internalCpuUs += us;
  }

  /** Count one answered request; `route` is the route pattern (`GET /usertable/:key`), never the raw URL. */
  record(route: string, statusCode: number): void {
    this.requests++;
    let entry = this.routes.get(route);
    if (entry === undefined) {
      entry = { requests: 0, statuses: {} };
      this.routes.set(route, entry);
    }
    entry.requests++;
    const code = String(statusCode);
    entry.statuses[code] = (entry.statuses[code] ?? 0) + 1;
  }

  /** This process's counters and CPU now. */
  snapshot(): ProcessStats {
    const cpu = process.cpuUsage();
    return {
      pid: process.pid,
      requests: this.requests,
      routes: Object.fromEntries(
        [...this.routes].map(([route, s]) => [route, { requests: s.requests, statuses: { ...s.statuses } }]),
      ),
      cpuUserUs: cpu.user,
      cpuSystemUs: cpu.system,
      internalCpuUs: this.internalCpuUs,
    };
  }
}

/** Sum process snapshots (workers, and a cluster's primary, which spends CPU handing out connections). */
export function combineStats(processes: readonly ProcessStats[], workers: number): ServiceStats {
  const routes: Record<string, RouteStats> = {};
  let requests = 0;
  let cpuUserUs = 0;
  let cpuSystemUs = 0;
  let internalCpuUs = 0;
  for (const p of processes) {
    requests += p.requests;
    cpuUserUs += p.cpuUserUs;
    cpuSystemUs += p.cpuSystemUs;
    internalCpuUs += p.internalCpuUs;
    for (const [route, s] of Object.entries(p.routes)) {
      const into = (routes[route] ??= { requests: 0, statuses: {} });
      into.requests += s.requests;
      for (const [code, n] of Object.entries(s.statuses)) into.statuses[code] = (into.statuses[code] ?? 0) + n;
    }
  }
  return {
    at: Date.now(),
    workers,
    requests,
    routes,
    cpuUserUs,
    cpuSystemUs,
    internalCpuUs,
    processes: [...processes],
  };
}

/**
 * The start barrier of a sharded run: every part waits until all N have arrived, then all start
 * at one instant. Part 0 serves a small HTTP coordinator (`--barrier host:port`); every part,
 * part 0 included, first measures its clock's offset to the coordinator's, NTP-style (offset =
 * coordinator time - the midpoint of the request's round trip, the probe with the shortest round
 * trip kept), then registers and waits. When the N-th part registers, the coordinator answers
 * every part with a start instant a short margin ahead on its own clock; each part waits until
 * that instant on its corrected clock. The coordinator alone decides when the wait is over: a
 * registered part waits for its answer until the coordinator's own give-up instant (told with the
 * time), so every part gives the same reason. Why a coordinator and not a key on the store under
 * test or a bare start time: docs/distributed.md.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../common/user-error.ts';

/** The coordinator's start instant lies this far ahead of the last arrival: every answer gets there first. */
export const START_MARGIN_MS = 1500;
/** Clock probes per part; the one with the shortest round trip sets the offset. */
const PROBES = 5;
/** A clock probe unanswered this long is tried again. */
const PROBE_TIMEOUT_MS = 5000;
/** How often a part tries again to reach a coordinator that is not up yet. */
const RETRY_MS = 250;
/** How long past the coordinator's own give-up instant a registered part still waits for its answer. */
const ANSWER_GRACE_MS = 3000;

/** A clock with sub-millisecond resolution, on the epoch (Date.now()'s scale). */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/** `host:port` of `--barrier` (or DOCBENCH_BARRIER). */
export function parseBarrierAddress(text: string): { host: string; port: number } {
  const m = /^\s*(\[[^\]]+\]|[^:\s]+):(\d+)\s*$/.exec(text);
  const port = m ? Number(m[2]) : NaN;
  if (!m || !(port >= 1 && port <= 65535))
    throw new UsageError(`--barrier expects host:port (part 0's coordinator, e.g. job-0.svc:7070), got "${text}"`);
  return { host: m[1]!.replace(/^\[|\]$/g, ''), port };
}

/** Who a part is, as it registers. */
export interface Arrival {
  index: number;
  count: number;
  /** The run's identity (--run-id and the settings' hash): parts of another run are turned away. */
  run: string;
}

/** What a part learns at the barrier. */
export interface BarrierStart {
  /** The agreed start instant, on the coordinator's clock (epoch ms). */
  startAt: number;
  /** Coordinator clock minus this clock (ms). */
  offsetMs: number;
  /** The round trip of the probe the offset came from (ms): the offset is good to about half of it. */
  roundTripMs: number;
}

/** The clock-offset estimate of one probe: the coordinator read its clock halfway through the round trip, as far as this part can tell. */
export function offsetOf(
  sentMs: number,
  coordinatorMs: number,
  receivedMs: number,
): { offsetMs: number; roundTripMs: number } {
  return { offsetMs: coordinatorMs - (sentMs + receivedMs) / 2, roundTripMs: receivedMs - sentMs };
}

/**
 * Part 0's coordinator: answers clock probes, holds each registration until all `count` parts
 * have registered (a part registering again, a restarted pod, replaces its earlier wait), then
 * answers all with the start instant and closes. After `timeoutMs` it answers every waiting part
 * with how many arrived, and closes.
 */
export class Coordinator {
  private readonly waiting = new Map<number, ServerResponse>();
  private readonly timer: NodeJS.Timeout;
  /** When the coordinator gives up, on its clock: the parts wait for its answer until then. */
  private readonly giveUpAt: number;
  private finished = false;

  private constructor(
    private readonly server: Server,
    private readonly arrival: Omit<Arrival, 'index'>,
    timeoutMs: number,
  ) {
    this.giveUpAt = nowMs() + timeoutMs;
    this.timer = setTimeout(() => this.timeOut(timeoutMs), timeoutMs);
    this.timer.unref();
  }

  static async start(
    address: { host: string; port: number },
    arrival: Omit<Arrival, 'index'>,
    timeoutMs: number,
  ): Promise<Coordinator> {
    const server = createServer();
    const coordinator = new Coordinator(server, arrival, timeoutMs);
    server.on('request', (req, res) => coordinator.handle(req, res));
    // A loopback address serves this machine only; any other name is how the other parts reach this one: listen on every interface.
    const host = /^(localhost|127\.\d+\.\d+\.\d+|::1)$/.test(address.host) ? address.host : '0.0.0.0';
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          new UsageError(
            `--barrier ${address.host}:${address.port}: part 0 cannot serve the barrier on port ${address.port} (${error.code ?? error.message})`,
          ),
        ),
      );
      server.listen(address.port, host, () => resolve());
    });
    return coordinator;
  }

  /** Stop serving (after the start, or when the part gives up). */
  close(): void {
    clearTimeout(this.timer);
    this.finished = true;
    this.server.close();
    this.server.closeAllConnections();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method === 'GET' && req.url === '/time') return reply(res, 200, { now: nowMs(), giveUpAt: this.giveUpAt });
    if (req.method !== 'POST' || req.url !== '/register') return reply(res, 404, { error: 'not found' });
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => this.register(body, res));
  }

  private register(body: string, res: ServerResponse): void {
    let arrival: Arrival;
    try {
      arrival = JSON.parse(body) as Arrival;
    } catch {
      return reply(res, 400, { error: 'a registration is JSON: {index, count, run}' });
    }
    const { count, run } = this.arrival;
    if (this.finished)
      return reply(res, 409, {
        error: `the barrier has already started or given up; part ${arrival.index} came too late`,
      });
    if (arrival.count !== count)
      return reply(res, 409, {
        error: `part ${arrival.index} is one of ${arrival.count} parts, but part 0 coordinates ${count}: every part needs the same --shards`,
      });
    if (arrival.run !== run)
      return reply(res, 409, {
        error: `part ${arrival.index} is of another run (${arrival.run}) than part 0 (${run}): every part needs the same settings and --run-id`,
      });
    if (!(Number.isInteger(arrival.index) && arrival.index >= 0 && arrival.index < count))
      return reply(res, 409, { error: `part ${arrival.index} is not a part of ${count}` });
    this.waiting.get(arrival.index)?.end();
    this.waiting.set(arrival.index, res);
    res.on('close', () => {
      if (!this.finished && this.waiting.get(arrival.index) === res) this.waiting.delete(arrival.index);
    });
    if (this.waiting.size < count) return;
    const startAt = nowMs() + START_MARGIN_MS;
    this.finished = true;
    clearTimeout(this.timer);
    for (const waiter of this.waiting.values()) reply(waiter, 200, { startAt });
    // Every answer written: stop listening, let the answers go out.
    this.server.close();
  }

  private timeOut(timeoutMs: number): void {
    if (this.finished) return;
    this.finished = true;
    const { count } = this.arrival;
    const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !this.waiting.has(i));
    const error = `the barrier gave up after ${Math.round(timeoutMs / 1000)} s: ${this.waiting.size} of ${count} parts arrived (missing: ${missing.join(', ')})`;
    for (const waiter of this.waiting.values()) reply(waiter, 504, { error });
    this.server.close();
  }
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** One HTTP exchange with the coordinator; rejects on a connection error (the caller retries). */
function exchange(
  host: string,
  port: number,
  method: string,
  path: string,
  body?: string,
  registrationTimeoutMs = 0,
): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host, port, method, path, headers: body ? { 'content-type': 'application/json' } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          try {
            resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Record<string, unknown> });
          } catch {
            reject(new Error(`an answer that is not JSON (HTTP ${res.statusCode})`));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // A probe that hangs (packets dropped on the way to a pod not yet there) is retried like a refused one; a registration waits for the others.
    if (method === 'GET') req.setTimeout(PROBE_TIMEOUT_MS, () => req.destroy(new Error('no answer to a clock probe')));
    // ...but not past the barrier's timeout: a coordinator that died holding it (no FIN, no RST from a vanished pod) never answers.
    else {
      const timer = setTimeout(
        () => req.destroy(new Error('the registration was taken but never answered')),
        Math.max(1, registrationTimeoutMs),
      );
      req.on('close', () => clearTimeout(timer));
    }
    req.end(body);
  });
}

export interface WaitOptions {
  /** Where the coordinator is (part 0 reaches its own over loopback). */
  host: string;
  port: number;
  /** `--barrier` as given, for messages. */
  address: string;
  arrival: Arrival;
  /** When to give up, on this clock (epoch ms). */
  deadlineMs: number;
}

/**
 * Measure this clock's offset to the coordinator, register, wait for every part, then wait until
 * the start instant on the corrected clock. Parts that start before part 0 retry until the
 * deadline; every way it can fail is one line.
 */
export async function waitAtBarrier(options: WaitOptions): Promise<BarrierStart> {
  const { host, port, address, arrival, deadlineMs } = options;
  let lastProblem = '';
  while (nowMs() < deadlineMs) {
    try {
      const { giveUpAt, ...clock } = await probeClock(host, port);
      // Registered, a part waits for the coordinator's answer, which comes by its give-up instant
      // (that may lie past this part's own deadline, when part 0 started later): its count of the
      // parts that arrived is the reason every part gives. Past that instant and a grace, the
      // coordinator is gone (a vanished pod sends no reset).
      const answerBy =
        giveUpAt === undefined ? deadlineMs : Math.max(deadlineMs, giveUpAt - clock.offsetMs + ANSWER_GRACE_MS);
      const answer = await exchange(host, port, 'POST', '/register', JSON.stringify(arrival), answerBy - nowMs());
      if (answer.status !== 200)
        throw new UsageError(`--barrier ${address}: ${String(answer.body.error ?? `HTTP ${answer.status}`)}`);
      const startAt = Number(answer.body.startAt);
      // The start instant on this machine's clock.
      const localStart = startAt - clock.offsetMs;
      await untilClock(localStart);
      return { startAt, ...clock };
    } catch (error) {
      if (error instanceof UsageError) throw error;
      lastProblem = error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
      await sleep(RETRY_MS);
    }
  }
  throw new UsageError(
    `--barrier ${address}: part 0's coordinator did not answer before the barrier timeout (${lastProblem || 'no answer'}): is part 0 running, and is the address right?`,
  );
}

/** The offset of the probe with the shortest round trip, and when the coordinator gives up (its clock), if it says. */
async function probeClock(
  host: string,
  port: number,
): Promise<{ offsetMs: number; roundTripMs: number; giveUpAt?: number }> {
  let best: { offsetMs: number; roundTripMs: number } | undefined;
  let giveUpAt: number | undefined;
  for (let i = 0; i < PROBES; i++) {
    const sent = nowMs();
    const answer = await exchange(host, port, 'GET', '/time');
    const received = nowMs();
    const probe = offsetOf(sent, Number(answer.body.now), received);
    if (best === undefined || probe.roundTripMs < best.roundTripMs) best = probe;
    if (typeof answer.body.giveUpAt === 'number') giveUpAt = answer.body.giveUpAt;
  }
  return { ...best!, ...(giveUpAt !== undefined ? { giveUpAt } : {}) };
}

/** Sleep until `targetMs` on this clock: a timer to within a few ms, then a yield loop for the rest. */
async function untilClock(targetMs: number): Promise<void> {
  const coarse = targetMs - nowMs() - 5;
  if (coarse > 0) await sleep(coarse);
  while (nowMs() < targetMs) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * `--workers N`: N service processes sharing one port through node:cluster, so the service can
 * use every core. The primary serves nothing itself: it starts the workers (replacing one that
 * dies), forwards SIGTERM/SIGINT to them and waits for their graceful exit, and answers their
 * stats questions by summing every worker's counters (and its own CPU, since it hands out
 * connections), so GET /_docbench/stats on any worker reports the whole service.
 */
import cluster, { type Worker } from 'node:cluster';
import { WORKER_CONFIG_ENV, type ServeConfig } from './config.ts';
import { combineStats, RequestCounter, type ProcessStats, type ServiceStats } from './stats.ts';
import { StartFailedError } from '../local/process.ts';
import { exitOnSignals, startService } from './server.ts';

type Message =
  | { docbench: 'listening'; address: string }
  | { docbench: 'failed'; message: string }
  | { docbench: 'stats-request'; id: number }
  | { docbench: 'stats-query'; id: number }
  | { docbench: 'stats-reply'; id: number; stats: ProcessStats }
  | { docbench: 'stats-result'; id: number; stats: ServiceStats };

/** How long the primary waits for workers' counters before answering with those it has. */
const STATS_TIMEOUT_MS = 2000;

export function isClusterWorker(): boolean {
  return cluster.isWorker && process.env[WORKER_CONFIG_ENV] !== undefined;
}

/** Primary: start the workers; resolves with the address once all of them listen. */
export function runPrimary(config: ServeConfig, log: (line: string) => void): Promise<string> {
  const primaryCounter = new RequestCounter();
  let shuttingDown = false;
  let queryId = 0;
  const pending = new Map<number, { replies: ProcessStats[]; expected: number; done: () => void }>();

  const fork = (): Worker => {
    const worker = cluster.fork({ [WORKER_CONFIG_ENV]: JSON.stringify(config) });
    worker.on('message', (message: Message) => onMessage(worker, message));
    return worker;
  };

  const onMessage = (from: Worker, message: Message) => {
    if (message.docbench === 'stats-request') {
      const id = ++queryId;
      const workers = Object.values(cluster.workers ?? {}).filter(
        (w): w is Worker => w !== undefined && w.isConnected(),
      );
      const replies: ProcessStats[] = [];
      const answer = () => {
        if (!pending.delete(id)) return;
        const stats = combineStats([primaryCounter.snapshot(), ...replies], config.workers);
        if (from.isConnected()) from.send({ docbench: 'stats-result', id: message.id, stats } satisfies Message);
      };
      pending.set(id, { replies, expected: workers.length, done: answer });
      setTimeout(answer, STATS_TIMEOUT_MS).unref();
      for (const w of workers) w.send({ docbench: 'stats-query', id } satisfies Message);
    } else if (message.docbench === 'stats-reply') {
      const query = pending.get(message.id);
      if (!query) return;
      query.replies.push(message.stats);
      if (query.replies.length >= query.expected) query.done();
    }
  };

  const stop = (signal: NodeJS.Signals) => {
    if (shuttingDown) process.exit(1);
    shuttingDown = true;
    log(`${signal}: stopping ${config.workers} workers`);
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);

  let started = false;
  cluster.on('exit', (worker, code, signal) => {
    // A worker that fails to start would fail again: start-up failures end the service instead.
    if (!started) return;
    if (shuttingDown) {
      // A worker leaves cluster.workers once it has both exited and disconnected, in either
      // order: the last one's 'exit' may come while it is still listed, so count the living.
      if (Object.values(cluster.workers ?? {}).every((w) => w === undefined || w.isDead())) process.exit(0);
      return;
    }
    log(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting another`);
    fork();
  });

  return new Promise((resolve, reject) => {
    let listening = 0;
    let failure: string | undefined;
    for (let i = 0; i < config.workers; i++) {
      const worker = fork();
      const onListening = (message: Message) => {
        if (message.docbench === 'failed') failure ??= message.message;
        if (message.docbench !== 'listening') return;
        worker.off('message', onListening);
        if (++listening === config.workers) {
          started = true;
          resolve(message.address);
        }
      };
      worker.on('message', onListening);
      worker.once('exit', (code) => {
        if (listening < config.workers && !shuttingDown) {
          // The others would fail the same way, or serve with fewer workers than asked: stop them.
          shuttingDown = true;
          for (const other of Object.values(cluster.workers ?? {})) other?.process.kill('SIGTERM');
          reject(new StartFailedError(failure ?? `a service worker exited during start-up (exit code ${code})`));
        }
      });
    }
  });
}

/** Worker: one service process; stats questions go to the primary. */
export async function runWorker(log: (line: string) => void): Promise<void> {
  const config = JSON.parse(process.env[WORKER_CONFIG_ENV]!) as ServeConfig;
  const counter = new RequestCounter();
  let requestId = 0;
  const waiting = new Map<number, (stats: ServiceStats) => void>();
  process.on('message', (message: Message) => {
    if (message.docbench === 'stats-query')
      process.send!({ docbench: 'stats-reply', id: message.id, stats: counter.snapshot() } satisfies Message);
    else if (message.docbench === 'stats-result') {
      waiting.get(message.id)?.(message.stats);
      waiting.delete(message.id);
    }
  });
  const stats = () =>
    new Promise<ServiceStats>((resolve) => {
      const id = ++requestId;
      waiting.set(id, resolve);
      process.send!({ docbench: 'stats-request', id } satisfies Message);
    });
  let service: Awaited<ReturnType<typeof startService>>;
  try {
    service = await startService({ config, counter, stats, log });
  } catch (error) {
    // The primary reports it, once, as one line: not a stack trace per worker.
    const message = error instanceof Error ? error.message : String(error);
    process.send!({ docbench: 'failed', message } satisfies Message, () => process.exit(2));
    return new Promise<never>(() => {});
  }
  // Ctrl-C reaches the workers and the primary alike, and the primary then forwards SIGTERM:
  // a worker must treat that second signal as the same request, not as "force it".
  exitOnSignals(service, log, { forceOnRepeat: false });
  process.send!({ docbench: 'listening', address: service.address } satisfies Message);
}

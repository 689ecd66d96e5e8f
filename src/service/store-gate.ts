/**
 * The service's one store connection, and what happens when the store goes away.
 *
 * A web service must not crash or hang when its database does: it answers 503 with a
 * Retry-After, keeps trying to reconnect in the background, and serves again as soon as the
 * store is back. Drivers differ in how they report a lost connection (some fail every call, some
 * queue, none agree on error classes), so the gate does not guess from error types: when a call
 * fails, it asks the store a cheap question that must succeed on a healthy store (a probe), and
 * if that fails too (it can on a healthy store: a Cassandra table that does not exist, or a
 * client whose socket died while the server stayed up), whether a fresh connection can be
 * opened. Only when both fail is the store down. When only the old client failed, the fresh
 * connection replaces it (drivers set never to reconnect would otherwise fail every later call);
 * when the probe succeeds, the failure was the call's own. A store found up stays trusted for a second, so a burst of failing calls
 * does not become a burst of probes.
 *
 * Reconnecting opens a fresh store through the same factory as at start-up, so recovery works
 * for every store, including drivers that give up on a connection once it drops.
 */
import { UnsupportedError, type Store } from '../stores/store.ts';
import { WorkloadError } from '../workload/properties.ts';
import { ConflictError, isConflict } from './conflicts.ts';
import { ValidationError } from './validation.ts';

/** The store is not reachable now; the HTTP layer turns this into 503 + Retry-After. */
export class StoreUnavailableError extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    reason: string,
  ) {
    super(`the store is unavailable (${reason}); retry in ${retryAfterSeconds} s`);
    this.name = 'StoreUnavailableError';
  }
}

export interface StoreGateOptions {
  /** Open and connect a new store; throws when the store is unreachable. */
  open: () => Promise<Store>;
  /** A cheap call that succeeds on any healthy store (e.g. reading a key that does not exist). */
  probe: (store: Store) => Promise<unknown>;
  /** Time between reconnection attempts while the store is down. */
  retryIntervalMs: number;
  /** One line on stderr for each change of state. */
  log: (line: string) => void;
}

/** How long a probe that found the store up is trusted. */
const TRUST_UP_MS = 1000;

export class StoreGate {
  private store: Store | null = null;
  private reason = 'not connected yet';
  private retryTimer: NodeJS.Timeout | null = null;
  private nextAttemptAt = 0;
  private checking: Promise<boolean> | null = null;
  /** When a probe last found the store up (ms, performance.now()). */
  private upAt = -Infinity;
  private closed = false;

  constructor(private readonly options: StoreGateOptions) {}

  /** First connection attempt; never throws: a store that is down now is retried in the background. */
  async start(): Promise<void> {
    await this.attempt();
  }

  get up(): boolean {
    return this.store !== null;
  }

  /** The connected store, for calls that describe it (stats); null while it is down. */
  current(): Store | null {
    return this.store;
  }

  /**
   * Run one store call. While the store is down: StoreUnavailableError at once (no queueing).
   * When the call fails: ConflictError for a write conflict (conflicts.ts), StoreUnavailableError
   * if the store turns out to be down, else the call's own error.
   */
  async use<T>(call: (store: Store) => Promise<T>): Promise<T> {
    const store = this.store;
    if (store === null) throw this.unavailable();
    try {
      return await call(store);
    } catch (error) {
      // Answers about the request or the data, not about the connection: no probe needed.
      if (error instanceof ValidationError || error instanceof UnsupportedError || error instanceof WorkloadError)
        throw error;
      // The store answered, and said no: no probe either.
      if (isConflict(error)) throw new ConflictError(messageOf(error), { cause: error });
      if (await this.stillUp(store)) throw error;
      throw this.unavailable();
    }
  }

  /** Seconds a client should wait before trying again: until the next reconnection attempt, at least 1. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil((this.nextAttemptAt - Date.now()) / 1000));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const store = this.store;
    this.store = null;
    await store?.close().catch(() => {});
  }

  private unavailable(): StoreUnavailableError {
    return new StoreUnavailableError(this.retryAfterSeconds(), this.reason);
  }

  /** One probe at a time, however many calls failed together. */
  private stillUp(store: Store): Promise<boolean> {
    if (this.store !== store) return Promise.resolve(false);
    if (performance.now() - this.upAt < TRUST_UP_MS) return Promise.resolve(true);
    this.checking ??= this.probe(store)
      .then(
        () => {
          this.upAt = performance.now();
          return true;
        },
        (error: unknown) => {
          this.markDown(store, error);
          return false;
        },
      )
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  /**
   * Resolves when the store answers: the cheap probe on the current client, or else a fresh
   * connection, which then replaces the current client (its connection may be the broken part).
   */
  private async probe(store: Store): Promise<void> {
    try {
      await this.options.probe(store);
    } catch (probeError) {
      const fresh = await this.options.open();
      let freshWorks = true;
      try {
        await this.options.probe(fresh);
      } catch {
        freshWorks = false; // the probe itself fails on a healthy store (a missing table): keep the old client
      }
      if (freshWorks && this.store === store && !this.closed) {
        this.store = fresh;
        this.options.log(`store connection replaced: the old one failed (${messageOf(probeError)}), a new one works`);
        void store.close().catch(() => {});
      } else {
        await fresh.close().catch(() => {});
      }
    }
  }

  private markDown(store: Store, error: unknown): void {
    if (this.store !== store) return;
    this.store = null;
    this.reason = messageOf(error);
    this.options.log(
      `store unreachable: ${this.reason}; answering 503 and reconnecting every ${this.options.retryIntervalMs} ms`,
    );
    // The old client may hold sockets or timers; it is not used again.
    void store.close().catch(() => {});
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.nextAttemptAt = Date.now() + this.options.retryIntervalMs;
    this.retryTimer = setTimeout(() => void this.attempt(), this.options.retryIntervalMs);
    // A pending reconnection must not keep a process alive that is shutting down.
    this.retryTimer.unref();
  }

  private async attempt(): Promise<void> {
    this.retryTimer = null;
    if (this.closed) return;
    let store: Store;
    try {
      store = await this.options.open();
    } catch (error) {
      const first = this.reason === 'not connected yet';
      this.reason = messageOf(error);
      if (first)
        this.options.log(
          `store unreachable: ${this.reason}; answering 503 and retrying every ${this.options.retryIntervalMs} ms`,
        );
      this.schedule();
      return;
    }
    if (this.closed) {
      await store.close().catch(() => {});
      return;
    }
    const recovered = this.reason !== 'not connected yet';
    this.store = store;
    this.reason = '';
    if (recovered) this.options.log('store reachable again: serving');
  }
}

/** The first line of the error's message: drivers append stack traces and inner-error dumps. */
function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0]!.trim();
}

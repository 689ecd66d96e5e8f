import type { LocalClusterTarget } from './cluster-target.ts';

/**
 * A local target: a server docbench can install into its cache folder and run on 127.0.0.1,
 * so a real comparison works on a laptop with nothing set up. Real servers where a registry
 * has them (Redis, Cassandra); clearly labelled stand-ins where it does not.
 */
export interface TargetInfo {
  /** Store name this target serves (`redis`, `cassandra`, `mongodb`, …). */
  store: string;
  /** What actually runs, e.g. "redis-server 7.0.15 (Debian)" or "SecantusDB 0.5.3-beta.196". */
  product: string;
  /** True when the target is not the real product (a wire-compatible stand-in). */
  standIn: boolean;
  /** One line on what the target cannot show (empty for a real server). */
  limits: string;
  /**
   * A stand-in's declared gaps: each kind of work it cannot do, with why. Work that needs one is
   * left out of a study before it runs, and named with the way to run it on the product.
   */
  cannot?: Readonly<Partial<Record<Capability, string>>>;
}

/**
 * Kinds of work docbench asks of a server that a stand-in may lack: `scan`, YCSB's SCAN (an
 * ordered range of keys); `query`, a scenario's queries (anything but reading or writing one
 * document by its key).
 */
export type Capability = 'scan' | 'query';

export interface TargetStatus {
  running: boolean;
  pid: number | null;
  /** Every process of a server that runs as several (HBase: its master and its REST gateway). */
  pids?: readonly number[];
  url: string;
  /** Where its log is, for messages that point a user at it. */
  logFile: string;
  /** From start(): true when this call started it, false when it was already running. */
  started?: boolean;
  /** What is worth telling about a stopped server, e.g. which program holds its port. */
  note?: string;
}

export interface LocalTarget {
  /** The store's local cluster (`docbench up <store> --nodes N`), when it can run one here. */
  readonly cluster?: LocalClusterTarget;
  readonly store: string;
  /** Default connection URL of the local server (fixed loopback port). */
  readonly url: string;
  /** Install into the cache folder if missing; idempotent; `log` prints progress on stderr. */
  install(log: (line: string) => void): Promise<void>;
  /** Start (installing first if needed) and wait until healthy; no-op if already running. */
  start(log: (line: string) => void): Promise<TargetStatus>;
  /** Stop the server docbench started (by its pid file, after checking the pid is still that server). */
  stop(log: (line: string) => void): Promise<void>;
  status(): Promise<TargetStatus>;
  info(): Promise<TargetInfo>;
}

import type { ServiceTimeouts } from './app.ts';
import type { ScenarioName } from '../../scenarios/scenarios.ts';
import type { ServedName } from './scenarios.ts';

/**
 * Everything one service process needs to start, resolved once by `docbench serve` (the store's
 * URL, after starting a local server if needed) and handed to each worker as it is: plain JSON.
 */
export interface ServeConfig {
  store: string;
  /** Resolved connection URL (the local server's when no --url was given). */
  url: string;
  /** True when docbench's own local server is used; recorded in the store description. */
  local: boolean;
  targetProduct?: string;
  targetStandIn?: { name: string; note: string };
  host: string;
  port: number;
  workers: number;
  /**
   * Store connections each service process may open (`--pool`): the store's pool size, as a
   * direct run's threadcount sizes it. Too small, and requests queue for a connection inside
   * the service, which a comparison with a direct run would wrongly blame on HTTP.
   */
  pool: number;
  /** Bearer token every request but health must carry; null: none (loopback only). */
  token: string | null;
  timeouts: ServiceTimeouts;
  bodyLimitBytes: number;
  /** Time between reconnection attempts while the store is down. */
  retryIntervalMs: number;
  /** The scenarios whose routes are served. */
  scenarios: ServedName[];
  /** Workload files and `-p` overrides: the YCSB table layout and the store settings come from them. */
  workloadFiles: string[];
  overrides: string[];
  /** `-p <scenario>.*` settings, prefix removed, for each scenario's own parser. */
  scenarioSettings: Partial<Record<ScenarioName, string[]>>;
}

/** The environment variable a cluster worker finds its configuration in. */
export const WORKER_CONFIG_ENV = 'DOCBENCH_SERVE_WORKER_CONFIG';

import type { ScenarioName } from './scenarios.ts';

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
  bodyLimitBytes: number;
  /** Time between reconnection attempts while the store is down. */
  retryIntervalMs: number;
  /** The scenarios whose routes are served. */
  scenarios: ScenarioName[];
  /** Workload files and `-p` overrides: the YCSB table layout and the store settings come from them. */
  workloadFiles: string[];
  overrides: string[];
  /** `-p ecommerce.*` / `-p persons.*` settings, prefix removed, for each scenario's own parser. */
  scenarioSettings: Record<Exclude<ScenarioName, 'ycsb'>, string[]>;
}

/** The environment variable a cluster worker finds its configuration in. */
export const WORKER_CONFIG_ENV = 'DOCBENCH_SERVE_WORKER_CONFIG';

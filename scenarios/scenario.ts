/**
 * What a scenario gives the rest of docbench, in three parts, each a module of the scenario's
 * folder loaded only when it is needed:
 *
 *   cli.ts      its commands: `docbench seed <name>`, its own command (`docbench persons`), the
 *               YCSB-shaped `load|run --scenario <name>`, and how `docbench k6` seeds and plans
 *               a run of its scripts. Imported when the CLI is built, so it must stay light:
 *               commander and option parsing only; the scenario's generator, dialects and
 *               drivers are imported inside the actions, when a command runs.
 *   service.ts  its routes of `docbench serve` and their settings (`-p <name>.<key>=…`): loaded
 *               by service processes only.
 *   k6 scripts  named in the row (paths from the repository root), so `docbench k6 <script>`
 *               knows which scenario a shipped script drives.
 *
 * The SCENARIOS table (scenarios.ts) lists one row per scenario; every list of scenarios (the
 * CLI's commands and `--scenario` choices, the service's routes and settings prefixes, the k6
 * scripts) is derived from it.
 */
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { StoreGate } from '../src/service/store-gate.ts';
import type { StoreTargets } from '../src/session/store-targets.ts';
import type { StoreName } from '../src/stores/stores.ts';

/** `docbench load|run --scenario <name> …`: what the YCSB-shaped phase commands hand a scenario. */
export interface ScenarioPhaseOptions {
  phase: 'load' | 'run';
  store: string;
  url?: string;
  /** `-P` values: the scenario's workload names (or its file). */
  workloads: readonly string[];
  /** `-p` assignments, the config file's store settings first. */
  property: readonly string[];
  threads?: number;
  target?: number;
  processes?: number;
  out?: string;
  status: boolean;
}

/** `docbench k6 <script>` for one of the scenario's scripts: its options as commander parsed them. */
export interface ScenarioK6Options {
  /** The script's own name (`pagination`, `persons`, `scenario`). */
  script: string;
  /** The scenario file the script drives (a scenario given by a file). */
  file?: string;
  threads?: number;
  target?: number;
  operations?: number;
  duration?: number;
  /** `-p` assignments as given. */
  overrides: readonly string[];
  /** Every option commander parsed, the scenario's own (`k6Options`) among them. */
  all: Readonly<Record<string, unknown>>;
  quiet: boolean;
}

/** What `docbench k6` needs to run one of the scenario's scripts. */
export interface ScenarioK6Plan {
  /** k6 environment beyond the load shape (NESTED=true, …). */
  env: Record<string, string>;
  /** `-p` assignments for `docbench serve` (scenario settings as `<name>.<key>=…`, store settings as they are). */
  serveSettings: string[];
  /** Seed the store before the run (undefined: the store already holds the dataset). */
  seed?: (store: string, targets: StoreTargets) => Promise<void>;
}

export interface ScenarioCommands {
  /** Register `docbench seed <name> …` on the `seed` command. */
  registerSeed?(seed: Command): void;
  /** Register the scenario's own commands on the program. */
  register?(program: Command): void;
  /** `docbench load|run --scenario <name>`; absent: the scenario has no YCSB-shaped phases. */
  phase?(options: ScenarioPhaseOptions): Promise<void>;
  /** Options `docbench k6` takes for this scenario's scripts (`--customers`, `--size`, …). */
  k6Options?(command: Command): void;
  /** How `docbench k6` runs one of its scripts; throws a UsageError for options that do not fit. */
  k6Plan?(options: ScenarioK6Options): ScenarioK6Plan | Promise<ScenarioK6Plan>;
}

export interface ScenarioRouteOptions<S> {
  gate: StoreGate;
  settings: S;
  log: (line: string) => void;
}

/** The scenario's part of `docbench serve`. */
export interface ScenarioService<S = unknown> {
  /** Its settings from `-p <name>.<key>=…` (prefix removed); throws a WorkloadError naming a bad one as `-p <name>.<key>`. */
  settings(assignments: readonly string[]): S;
  /** Register its routes on the service's app. */
  register(app: FastifyInstance, options: ScenarioRouteOptions<S>): void;
  /** What `GET /_docbench/info` says about it (k6 scripts read it in setup()); absent: nothing. */
  info?(settings: S): unknown;
}

export interface ScenarioEntry {
  /** One line for help texts. */
  readonly summary: string;
  /** The stores it runs on (those with a dialect), in the STORES table's order of its listing. */
  readonly stores: () => readonly StoreName[];
  /** Its commands (a light module: see above). */
  readonly commands: () => Promise<{ commands: ScenarioCommands }>;
  /** Its routes of `docbench serve`; absent: not served. */
  readonly service?: () => Promise<{ service: ScenarioService }>;
  /** Its shipped k6 scripts: name -> path from the repository root. */
  readonly k6Scripts?: Readonly<Record<string, string>>;
  /**
   * A scenario given by a file rather than by name (`docbench serve --scenario blog.yaml`,
   * `docbench k6 blog.yaml`): whether a value names such a file.
   */
  readonly isFile?: (value: string) => boolean;
}

/**
 * Load settings from environment variables (`k6 run -e NAME=value`, or the k6 cloud / k6-operator
 * environment), so one script runs unchanged everywhere. The workload itself (operation mix,
 * distributions, record layout) is not set here: the service was started with it and hands it to
 * the script in setup(), resolved by docbench's own parser.
 *
 *   BASE_URL     the service, e.g. http://127.0.0.1:18080                 (required off localhost)
 *   DOCBENCH_TOKEN  the service's bearer token (docbench serve --token)          (default: none)
 *   MODEL        closed (default): VUS virtual users, each one operation at a time, as fast as
 *                the service answers (YCSB's threadcount); open: RATE operations per second
 *                arrive whatever the latency (YCSB's target, k6's constant-arrival-rate)
 *   VUS          closed: virtual users; open: VUs allocated up front             (default 8)
 *   ITERATIONS   closed only: total operations, shared by the VUs (YCSB's operationcount);
 *                without it the run lasts DURATION; with both, whichever ends first
 *   DURATION     how long to run, k6 syntax (30s, 2m)                         (default 30s)
 *   RATE         open only: operations per second (required with MODEL=open, unless STAGES)
 *   MAX_VUS      open only: VUs k6 may add when the service falls behind    (default 4 × VUS)
 *   STAGES       a ramp instead of a constant load, `duration:target,…` from 0 (`30s:50,2m:50,
 *                30s:0`): targets are VUs in the closed model (ramping-vus), operations per
 *                second in the open one (ramping-arrival-rate); a `0s:N` stage starts at N
 *   P99_MS       threshold on every operation's p99, in ms                   (default 1000)
 *   MAX_FAILED   threshold on the rate of failed requests (not answered, or answered with an
 *                error other than a 404 the script expects or a 409 conflict)     (default 0)
 *   MAX_ERRORS   error budget: operations that may return ERROR (write conflicts included)
 *                before the run fails                                      (default: no limit)
 *   MAX_DROPPED  open only: the fraction of scheduled iterations k6 may drop  (default 0)
 *   PERCENTILES  latency percentiles reported                       (default 50,95,99,99.9)
 *   RESULT_FILE  handleSummary writes docbench's JSON result there (then k6 prints the
 *                thresholds and YCSB text instead of its own summary)    (default: not written)
 *   CLOUD_PROJECT_ID, CLOUD_NAME, CLOUD_LOAD_ZONES   options.cloud for `k6 cloud run`: project,
 *                test name, load zones sharing the load equally (`amazon:de:frankfurt,…`)
 */

import type { Options, Scenario, Stage } from 'k6/options';

export interface LoadSettings {
  baseUrl: string;
  /** Bearer token sent with every request; null: none. */
  token: string | null;
  model: 'closed' | 'open';
  vus: number;
  iterations: number | null;
  duration: string;
  /** DURATION as given (null: not given), the bound of an ITERATIONS run. */
  durationGiven: string | null;
  rate: number | null;
  maxVus: number;
  /** A ramp (ramping-vus or ramping-arrival-rate); null: a constant load. */
  stages: Stage[] | null;
  p99Ms: number;
  maxFailedRate: number;
  /** Operations that may return ERROR before the run fails; null: no budget (no threshold). */
  maxErrors: number | null;
  /** Open model: the fraction of scheduled iterations that may be dropped. */
  maxDroppedFraction: number;
  percentiles: number[];
  resultFile: string | null;
  cloud: NonNullable<Options['cloud']> | null;
}

/** Percentiles reported by default: the same list as docbench's `hdrhistogram.percentiles` default. */
const DEFAULT_PERCENTILES = '50,95,99,99.9';

/** The bound of an ITERATIONS run without DURATION: k6 needs one, and a run this long is unbounded for any benchmark. */
export const NO_DURATION_BOUND = '24h';

const DURATION = /^(\d+(\.\d+)?(ms|s|m|h))+$/;

/** A bad setting stops the test in the init stage with a message that names the variable. */
export function loadSettings(env: Record<string, string | undefined>): LoadSettings {
  const model = env.MODEL ?? 'closed';
  if (model !== 'closed' && model !== 'open') throw new Error(`MODEL must be closed or open, got "${model}"`);
  const vus = wholeNumber(env, 'VUS', 8);
  const stages = env.STAGES === undefined ? null : parseStages(env.STAGES);
  const rate = env.RATE === undefined ? null : positiveNumber(env, 'RATE');
  if (model === 'open' && rate === null && stages === null)
    throw new Error('MODEL=open needs RATE (operations per second), or STAGES');
  const iterations = env.ITERATIONS === undefined ? null : wholeNumber(env, 'ITERATIONS', 0);
  if (model === 'open' && iterations !== null)
    throw new Error('ITERATIONS applies to MODEL=closed; the open model runs for DURATION');
  if (stages !== null && (iterations !== null || env.DURATION !== undefined || rate !== null))
    throw new Error('STAGES sets the whole load shape: give it without ITERATIONS, DURATION or RATE');
  const duration = env.DURATION ?? '30s';
  if (!DURATION.test(duration)) throw new Error(`DURATION must be a k6 duration such as 30s or 2m, got "${duration}"`);
  const percentiles = (env.PERCENTILES ?? DEFAULT_PERCENTILES).split(',').map((p) => Number(p.trim()));
  if (percentiles.some((p) => !Number.isFinite(p) || p <= 0 || p > 100))
    throw new Error(`PERCENTILES must be a comma-separated list of numbers in (0, 100], got "${env.PERCENTILES}"`);
  const baseUrl = (env.BASE_URL ?? 'http://127.0.0.1:18080').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(baseUrl))
    throw new Error(`BASE_URL must be http(s)://host[:port], got "${env.BASE_URL}"`);
  return {
    baseUrl,
    token: env.DOCBENCH_TOKEN || null,
    model,
    vus,
    iterations,
    duration,
    durationGiven: env.DURATION ?? null,
    rate,
    maxVus: env.MAX_VUS === undefined ? vus * 4 : wholeNumber(env, 'MAX_VUS', vus),
    stages,
    p99Ms: env.P99_MS === undefined ? 1000 : positiveNumber(env, 'P99_MS'),
    maxFailedRate: env.MAX_FAILED === undefined ? 0 : fraction(env, 'MAX_FAILED'),
    maxErrors: env.MAX_ERRORS === undefined ? null : count(env, 'MAX_ERRORS'),
    maxDroppedFraction: env.MAX_DROPPED === undefined ? 0 : fraction(env, 'MAX_DROPPED'),
    percentiles,
    resultFile: env.RESULT_FILE || null,
    cloud: cloudOptions(env),
  };
}

/** `30s:10,1m:10,30s:0` -> k6 stages. */
function parseStages(text: string): Stage[] {
  const stages = text.split(',').map((part) => {
    const [duration, target, extra] = part.trim().split(':');
    if (
      extra !== undefined ||
      duration === undefined ||
      !DURATION.test(duration) ||
      target === undefined ||
      !/^\d+(\.\d+)?$/.test(target)
    ) {
      throw new Error(
        `STAGES must be duration:target pairs such as 30s:10,1m:10,30s:0, got "${part.trim()}" in "${text}"`,
      );
    }
    return { duration, target: Number(target) };
  });
  if (stages.every((s) => s.target === 0)) throw new Error(`STAGES must reach a target above 0, got "${text}"`);
  return stages;
}

/** The k6 scenario for the chosen model. One iteration is one YCSB operation. */
export function scenarioFor(s: LoadSettings): Scenario {
  if (s.model === 'open') {
    const vus = { preAllocatedVUs: s.vus, maxVUs: Math.max(s.vus, s.maxVus) };
    if (s.stages !== null)
      return { executor: 'ramping-arrival-rate', startRate: 0, timeUnit: '1s', stages: s.stages, ...vus };
    return { executor: 'constant-arrival-rate', rate: s.rate!, timeUnit: '1s', duration: s.duration, ...vus };
  }
  if (s.stages !== null) return { executor: 'ramping-vus', startVUs: 0, stages: s.stages };
  if (s.iterations !== null)
    return {
      executor: 'shared-iterations',
      vus: s.vus,
      iterations: s.iterations,
      maxDuration: s.durationGiven ?? NO_DURATION_BOUND,
    };
  return { executor: 'constant-vus', vus: s.vus, duration: s.duration };
}

/** Most VUs the run can have: each VU owns a slice of the insert key space, so it must know. */
export function maxVusOf(s: LoadSettings): number {
  return maxVusOfScenario(scenarioFor(s));
}

/** Most VUs a scenario can run, read from the scenario itself (k6 may run options other than these settings': an archive's). */
export function maxVusOfScenario(scenario: Scenario): number {
  switch (scenario.executor) {
    case 'constant-vus':
    case 'shared-iterations':
      return scenario.vus ?? 1;
    case 'ramping-vus':
      return Math.max(scenario.startVUs ?? 1, ...scenario.stages.map((s) => s.target));
    case 'constant-arrival-rate':
    case 'ramping-arrival-rate':
      return Math.max(scenario.preAllocatedVUs, scenario.maxVUs ?? 0);
    default: {
      // An executor docbench does not set up (per-vu-iterations, from a script of one's own).
      const other = scenario as { vus?: number; maxVUs?: number };
      return Math.max(other.vus ?? 1, other.maxVUs ?? 0);
    }
  }
}

/**
 * Iterations an open-model scenario schedules (RATE × DURATION, or the area under the stages),
 * so MAX_DROPPED, a fraction, becomes the count k6's dropped_iterations threshold takes.
 */
export function scheduledIterations(scenario: Scenario): number {
  const perSecond = (timeUnit: string | undefined) => 1 / (durationSeconds(timeUnit ?? '1s') || 1);
  if (scenario.executor === 'constant-arrival-rate')
    return scenario.rate * perSecond(scenario.timeUnit) * durationSeconds(scenario.duration);
  if (scenario.executor !== 'ramping-arrival-rate') return 0;
  let from = scenario.startRate ?? 0;
  let total = 0;
  for (const stage of scenario.stages) {
    total += ((from + stage.target) / 2) * durationSeconds(stage.duration);
    from = stage.target;
  }
  return total * perSecond(scenario.timeUnit);
}

/** k6 duration text (`1m30s`, `45s`, `500ms`) in seconds. */
export function durationSeconds(text: string): number {
  const unit: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  let seconds = 0;
  for (const [, n, u] of text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) seconds += Number(n) * unit[u!]!;
  return seconds;
}

/** CLOUD_PROJECT_ID, CLOUD_NAME and CLOUD_LOAD_ZONES as `options.cloud`; null when none is set. */
function cloudOptions(env: Record<string, string | undefined>): LoadSettings['cloud'] {
  if (env.CLOUD_PROJECT_ID === undefined && env.CLOUD_NAME === undefined && env.CLOUD_LOAD_ZONES === undefined)
    return null;
  const cloud: NonNullable<LoadSettings['cloud']> = {};
  if (env.CLOUD_PROJECT_ID !== undefined) cloud.projectID = wholeNumber(env, 'CLOUD_PROJECT_ID', 0);
  if (env.CLOUD_NAME !== undefined) cloud.name = env.CLOUD_NAME;
  if (env.CLOUD_LOAD_ZONES !== undefined) {
    const zones = env.CLOUD_LOAD_ZONES.split(',').map((z) => z.trim());
    if (zones.some((z) => !/^[a-z0-9-]+(:[a-z0-9-]+)+$/.test(z)))
      throw new Error(
        `CLOUD_LOAD_ZONES must be load zone ids such as amazon:de:frankfurt, comma-separated, got "${env.CLOUD_LOAD_ZONES}"`,
      );
    // Whole percents summing to 100: the first zones take the remainder.
    const share = Math.floor(100 / zones.length);
    cloud.distribution = Object.fromEntries(
      zones.map((loadZone, i) => [loadZone, { loadZone, percent: share + (i < 100 - share * zones.length ? 1 : 0) }]),
    );
  }
  return cloud;
}

function wholeNumber(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number >= 1, got "${raw}"`);
  return n;
}

function count(env: Record<string, string | undefined>, name: string): number {
  const n = Number(env[name]);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a whole number >= 0, got "${env[name]}"`);
  return n;
}

function positiveNumber(env: Record<string, string | undefined>, name: string): number {
  const n = Number(env[name]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a number > 0, got "${env[name]}"`);
  return n;
}

function fraction(env: Record<string, string | undefined>, name: string): number {
  const n = Number(env[name]);
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new Error(`${name} must be a number between 0 and 1, got "${env[name]}"`);
  return n;
}

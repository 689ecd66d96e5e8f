/**
 * Load settings from environment variables (`k6 run -e NAME=value`, or the k6 cloud / k6-operator
 * environment), so one script runs unchanged everywhere. The workload itself (operation mix,
 * distributions, record layout) is not set here: the service was started with it and hands it to
 * the script in setup(), resolved by docbench's own parser.
 *
 *   BASE_URL     the service, e.g. http://127.0.0.1:18080                 (required off localhost)
 *   MODEL        closed (default): VUS virtual users, each one operation at a time, as fast as
 *                the service answers (YCSB's threadcount); open: RATE operations per second
 *                arrive whatever the latency (YCSB's target, k6's constant-arrival-rate)
 *   VUS          closed: virtual users; open: VUs allocated up front             (default 8)
 *   ITERATIONS   closed only: total operations, shared by the VUs (YCSB's operationcount);
 *                without it the run lasts DURATION; with both, whichever ends first
 *   DURATION     how long to run, k6 syntax (30s, 2m)                         (default 30s)
 *   RATE         open only: operations per second (required with MODEL=open)
 *   MAX_VUS      open only: VUs k6 may add when the service falls behind    (default 4 × VUS)
 *   P99_MS       threshold on every operation's p99, in ms                   (default 1000)
 *   MAX_FAILED   threshold on the rate of failed requests                       (default 0)
 *   PERCENTILES  latency percentiles reported                       (default 50,95,99,99.9)
 *   RESULT_FILE  where handleSummary writes docbench's JSON result (default: not written)
 */

import type { Scenario } from 'k6/options';

export interface LoadSettings {
  baseUrl: string;
  model: 'closed' | 'open';
  vus: number;
  iterations: number | null;
  duration: string;
  /** DURATION as given (null: not given), the bound of an ITERATIONS run. */
  durationGiven: string | null;
  rate: number | null;
  maxVus: number;
  p99Ms: number;
  maxFailedRate: number;
  percentiles: number[];
  resultFile: string | null;
}

/** Percentiles reported by default: the same list as docbench's `hdrhistogram.percentiles` default. */
const DEFAULT_PERCENTILES = '50,95,99,99.9';

/** A bad setting stops the test in the init stage with a message that names the variable. */
export function loadSettings(env: Record<string, string | undefined>): LoadSettings {
  const model = env.MODEL ?? 'closed';
  if (model !== 'closed' && model !== 'open') throw new Error(`MODEL must be closed or open, got "${model}"`);
  const vus = wholeNumber(env, 'VUS', 8);
  const rate = env.RATE === undefined ? null : positiveNumber(env, 'RATE');
  if (model === 'open' && rate === null) throw new Error('MODEL=open needs RATE (operations per second)');
  const iterations = env.ITERATIONS === undefined ? null : wholeNumber(env, 'ITERATIONS', 0);
  if (model === 'open' && iterations !== null) throw new Error('ITERATIONS applies to MODEL=closed; the open model runs for DURATION');
  const duration = env.DURATION ?? '30s';
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(duration)) throw new Error(`DURATION must be a k6 duration such as 30s or 2m, got "${duration}"`);
  const percentiles = (env.PERCENTILES ?? DEFAULT_PERCENTILES).split(',').map((p) => Number(p.trim()));
  if (percentiles.some((p) => !Number.isFinite(p) || p <= 0 || p > 100)) throw new Error(`PERCENTILES must be a comma-separated list of numbers in (0, 100], got "${env.PERCENTILES}"`);
  const baseUrl = (env.BASE_URL ?? 'http://127.0.0.1:18080').replace(/\/+$/, '');
  if (!/^https?:\/\/[^/]+$/.test(baseUrl)) throw new Error(`BASE_URL must be http(s)://host[:port], got "${env.BASE_URL}"`);
  return {
    baseUrl,
    model,
    vus,
    iterations,
    duration,
    durationGiven: env.DURATION ?? null,
    rate,
    maxVus: env.MAX_VUS === undefined ? vus * 4 : wholeNumber(env, 'MAX_VUS', vus),
    p99Ms: env.P99_MS === undefined ? 1000 : positiveNumber(env, 'P99_MS'),
    maxFailedRate: env.MAX_FAILED === undefined ? 0 : fraction(env, 'MAX_FAILED'),
    percentiles,
    resultFile: env.RESULT_FILE ?? null,
  };
}

/** The k6 scenario for the chosen model. One iteration is one YCSB operation. */
export function scenarioFor(s: LoadSettings): Scenario {
  if (s.model === 'open') {
    return {
      executor: 'constant-arrival-rate',
      rate: s.rate!,
      timeUnit: '1s',
      duration: s.duration,
      preAllocatedVUs: s.vus,
      maxVUs: Math.max(s.vus, s.maxVus),
    };
  }
  if (s.iterations !== null) return { executor: 'shared-iterations', vus: s.vus, iterations: s.iterations, maxDuration: s.durationGiven ?? '24h' };
  return { executor: 'constant-vus', vus: s.vus, duration: s.duration };
}

/** Most VUs the run can have: each VU owns a slice of the insert key space, so it must know. */
export function maxVusOf(s: LoadSettings): number {
  return s.model === 'open' ? Math.max(s.vus, s.maxVus) : s.vus;
}

function wholeNumber(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a whole number >= 1, got "${raw}"`);
  return n;
}

function positiveNumber(env: Record<string, string | undefined>, name: string): number {
  const n = Number(env[name]);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a number > 0, got "${env[name]}"`);
  return n;
}

function fraction(env: Record<string, string | undefined>, name: string): number {
  const n = Number(env[name]);
  if (!Number.isFinite(n) || n < 0 || n > 1) throw new Error(`${name} must be a number between 0 and 1, got "${env[name]}"`);
  return n;
}

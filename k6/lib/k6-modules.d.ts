/**
 * Types of the parts of k6's JavaScript API these scripts use, for the project's typecheck only
 * (k6 itself strips types and never reads this file). Declared here rather than taken from a
 * types package so the scripts typecheck on a fresh clone with docbench's own dependencies.
 * Names and shapes follow k6's documentation (grafana.com/docs/k6/latest/javascript-api/), so a
 * script written against these declarations is a plain k6 script.
 *
 * An ambient declaration file: no top-level import or export, so each `declare module` below
 * declares the module rather than augmenting one.
 */

/** Environment variables: `k6 run -e NAME=value`, the shell's, or k6 cloud's / k6-operator's. */
declare var __ENV: { [name: string]: string };

declare module 'k6' {
  /** Abort the current iteration (or setup()) with a message. */
  export function fail(message?: string): never;
  /**
   * Record named checks (each a boolean, or a function of `value` returning one) in k6's `checks`
   * rate; returns true when all passed. A check never stops the iteration: a threshold on
   * `checks` decides whether failed ones fail the run.
   */
  export function check<T>(
    value: T,
    sets: { [name: string]: boolean | ((value: T) => boolean) },
    tags?: { [name: string]: string },
  ): boolean;
}

declare module 'k6/http' {
  export type ResponseType = 'binary' | 'none' | 'text';

  /** Decides which statuses are "expected" (not counted in http_req_failed); from `expectedStatuses`. */
  export interface ExpectedStatusesCallback {
    readonly __expectedStatuses: never;
  }

  export interface Params {
    headers?: { [name: string]: string };
    tags?: { [name: string]: string };
    responseType?: ResponseType;
    timeout?: string | number;
    /** This request's expected statuses, instead of the global callback's. */
    responseCallback?: ExpectedStatusesCallback | null;
  }

  export interface Timings {
    /** Total time of the request (sending + waiting + receiving), in ms. */
    duration: number;
    blocked: number;
    connecting: number;
    sending: number;
    waiting: number;
    receiving: number;
  }

  export interface Response {
    /** HTTP status, or 0 when no response arrived (see `error`). */
    status: number;
    /** null with responseType `none`. */
    body: string | ArrayBuffer | null;
    headers: { [name: string]: string };
    timings: Timings;
    /** Empty unless the request failed below HTTP (connection refused, timeout). */
    error: string;
    error_code: number;
    /** The body parsed as JSON (a `selector` picks a part of it). */
    json(selector?: string): unknown;
  }

  /** k6's name for a response whose body type follows `responseType`; one shape here. */
  export type RefinedResponse<_RT extends ResponseType | undefined> = Response;

  type Body = string | ArrayBuffer | null;

  interface Http {
    get(url: string, params?: Params): Response;
    head(url: string, params?: Params): Response;
    del(url: string, body?: Body, params?: Params): Response;
    post(url: string, body?: Body, params?: Params): Response;
    put(url: string, body?: Body, params?: Params): Response;
    patch(url: string, body?: Body, params?: Params): Response;
    request(method: string, url: string, body?: Body, params?: Params): Response;
    /** The statuses that are not failures (k6's default: 200–399). Native: no JavaScript runs per request. */
    expectedStatuses(...statuses: (number | { min: number; max: number })[]): ExpectedStatusesCallback;
    /** Set the default expected statuses of every request of this VU (init stage). */
    setResponseCallback(callback: ExpectedStatusesCallback | null): void;
  }

  const http: Http;
  export default http;
}

declare module 'k6/metrics' {
  export class Counter {
    constructor(name: string, isTime?: boolean);
    add(value: number, tags?: { [name: string]: string }): void;
  }
  export class Trend {
    /** `isTime`: values are durations in ms (reported as times). */
    constructor(name: string, isTime?: boolean);
    add(value: number, tags?: { [name: string]: string }): void;
  }
  export class Rate {
    constructor(name: string);
    add(value: boolean | number, tags?: { [name: string]: string }): void;
  }
}

declare module 'k6/execution' {
  import type { Options } from 'k6/options';
  const exec: {
    vu: { idInTest: number; idInInstance: number; iterationInScenario: number };
    scenario: { name: string; iterationInTest: number };
    /** `options`: the options k6 actually runs with (an archive's, the command line's, the script's, consolidated). */
    test: { abort(message?: string): never; options: Options };
  };
  export default exec;
}

declare module 'k6/options' {
  interface ScenarioBase {
    exec?: string;
    startTime?: string;
    gracefulStop?: string;
    env?: { [name: string]: string };
    tags?: { [name: string]: string };
  }
  export interface SharedIterationsScenario extends ScenarioBase {
    executor: 'shared-iterations';
    vus?: number;
    iterations?: number;
    maxDuration?: string;
  }
  export interface ConstantVUsScenario extends ScenarioBase {
    executor: 'constant-vus';
    vus?: number;
    duration: string;
  }
  export interface ConstantArrivalRateScenario extends ScenarioBase {
    executor: 'constant-arrival-rate';
    rate: number;
    timeUnit?: string;
    duration: string;
    preAllocatedVUs: number;
    maxVUs?: number;
  }
  /** One step of a ramping executor: reach `target` (VUs, or iterations per timeUnit) over `duration`. */
  export interface Stage {
    duration: string;
    target: number;
  }
  export interface RampingVUsScenario extends ScenarioBase {
    executor: 'ramping-vus';
    startVUs?: number;
    stages: Stage[];
    gracefulRampDown?: string;
  }
  export interface RampingArrivalRateScenario extends ScenarioBase {
    executor: 'ramping-arrival-rate';
    startRate?: number;
    timeUnit?: string;
    stages: Stage[];
    preAllocatedVUs: number;
    maxVUs?: number;
  }
  export type Scenario =
    | SharedIterationsScenario
    | ConstantVUsScenario
    | ConstantArrivalRateScenario
    | RampingVUsScenario
    | RampingArrivalRateScenario;

  export interface Options {
    scenarios?: { [name: string]: Scenario };
    thresholds?: { [metric: string]: string[] };
    summaryTrendStats?: string[];
    /** Tags that make a time series of their own; k6 keeps `name` and friends by default. */
    systemTags?: string[];
    discardResponseBodies?: boolean;
    setupTimeout?: string;
    teardownTimeout?: string;
    noConnectionReuse?: boolean;
    /** Grafana Cloud k6 (`k6 cloud run`): the project, the test's name, and the load zones' shares. */
    cloud?: {
      projectID?: number;
      name?: string;
      distribution?: { [label: string]: { loadZone: string; percent: number } };
    };
  }
}

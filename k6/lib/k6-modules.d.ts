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
}

declare module 'k6/http' {
  export type ResponseType = 'binary' | 'none' | 'text';

  export interface Params {
    headers?: { [name: string]: string };
    tags?: { [name: string]: string };
    responseType?: ResponseType;
    timeout?: string | number;
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
  const exec: {
    vu: { idInTest: number; idInInstance: number; iterationInScenario: number };
    scenario: { name: string; iterationInTest: number };
    test: { abort(message?: string): never };
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
  export type Scenario = SharedIterationsScenario | ConstantVUsScenario | ConstantArrivalRateScenario;

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
    /** k6 cloud: the project and test name (`k6 cloud run`). */
    cloud?: { projectID?: number; name?: string };
  }
}

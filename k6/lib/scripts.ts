/**
 * The exports every k6 script needs (options, setup, the iteration, teardown, handleSummary),
 * built once per kind of script, so each script file only names its workload. Called in k6's
 * init context: settings are read and custom metrics defined there, as k6 requires.
 */
import http from 'k6/http';
import type { Options } from 'k6/options';
import { YCSB_OPERATIONS } from './metric-names.ts';
import { scriptOptions } from './options.ts';
import { teardownRun } from './service.ts';
import { loadSettings, type LoadSettings } from './settings.ts';
import { summarize, type SummaryData } from './summary.ts';
import { setupRun, ycsbIteration, type SetupData } from './ycsb.ts';

export interface Script<Data> {
  options: Options;
  setup: () => Data;
  iteration: (data: Data) => void;
  teardown: (data: Data) => void;
  handleSummary: (data: SummaryData) => Record<string, string> | undefined;
}

/**
 * The settings every script starts from. Also makes a 409 an answer rather than a failed
 * request: a write conflict is the store's verdict (an ERROR row, as in direct mode), and
 * whether it fails the run is the error budget's call (MAX_ERRORS), not http_req_failed's.
 */
export function scriptSettings(): LoadSettings {
  http.setResponseCallback(http.expectedStatuses({ min: 200, max: 299 }, 409));
  return loadSettings(__ENV);
}

/**
 * A YCSB script: `workload` is the shipped workload the service must run (null: whatever it
 * was started with); `rows` are the operations the workload has, each with its thresholds.
 */
export function ycsbScript(workload: string | null, rows: readonly string[] = YCSB_OPERATIONS): Script<SetupData> {
  const settings = scriptSettings();
  return {
    options: scriptOptions(settings, 'ycsb', rows),
    setup: () => setupRun(settings, workload),
    iteration: ycsbIteration(settings),
    teardown: (data) => teardownRun(settings, data),
    handleSummary: (data) => summarize(data, settings),
  };
}

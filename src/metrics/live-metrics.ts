/**
 * What a run has done so far, for live metrics (`--metrics-port`): store calls by operation and
 * status, failed ones apart, each latency row's HDR histogram since the run (or capacity step)
 * started, and the verdict once the run is over. Fed each second by the run's observer with every
 * process's rows (never per operation), read by the exposition at each scrape.
 */
import { newLatencyHistogram, type Histogram } from '../measure/histogram.ts';
import type { IntervalRows } from '../measure/interval-rows.ts';
import type { Status } from '../measure/status.ts';
import type { RunControl, RunObserver } from '../runner/schedule.ts';

/** The labels a run's series carry: which store, which workload, which phase. */
export interface RunLabels {
  store: string;
  workload: string;
  phase: 'load' | 'run';
}

export interface RunState {
  labels: RunLabels;
  /** Calls by operation and status since the process started serving metrics (a counter). */
  calls: Map<string, Map<Status, number>>;
  /** Latency rows since the run started (a capacity step starts them again). */
  rows: Map<string, Histogram>;
  running: boolean;
  /** `valid` or `invalid`, once the run is over. */
  verdict?: 'valid' | 'invalid';
  /** A capacity step's offered rate, while one runs. */
  targetOpsPerSec?: number;
  /** The highest rate that held so far, in a capacity search. */
  highestHeldOpsPerSec?: number;
}

export class LiveMetrics {
  /** Runs by their labels, in the order they started. */
  readonly runs = new Map<string, RunState>();

  private stateOf(labels: RunLabels): RunState {
    const key = JSON.stringify([labels.store, labels.workload, labels.phase]);
    let state = this.runs.get(key);
    if (state === undefined) {
      state = { labels, calls: new Map(), rows: new Map(), running: false };
      this.runs.set(key, state);
    }
    return state;
  }

  /**
   * A run starts: its latency rows start empty (its counters go on counting), and the observer to
   * pass to the run is returned.
   */
  start(labels: RunLabels, targetOpsPerSec?: number): RunObserver {
    const state = this.stateOf(labels);
    for (const h of state.rows.values()) h.reset();
    state.running = true;
    delete state.verdict;
    if (targetOpsPerSec !== undefined) state.targetOpsPerSec = targetOpsPerSec;
    else delete state.targetOpsPerSec;
    return { second: (rows: IntervalRows, _recording: boolean, _control: RunControl) => this.add(state, rows) };
  }

  private add(state: RunState, second: IntervalRows): void {
    for (const [name, histogram] of second.histograms) {
      if (histogram.totalCount === 0) continue;
      let mine = state.rows.get(name);
      if (mine === undefined) {
        mine = newLatencyHistogram();
        state.rows.set(name, mine);
      }
      mine.add(histogram);
    }
    for (const [operation, counts] of second.counts) {
      let mine = state.calls.get(operation);
      if (mine === undefined) {
        mine = new Map();
        state.calls.set(operation, mine);
      }
      for (const [status, n] of counts) mine.set(status, (mine.get(status) ?? 0) + n);
    }
  }

  /** The run is over: its verdict (and, in a capacity search, the highest rate that held so far). */
  finish(labels: RunLabels, verdict: 'valid' | 'invalid', highestHeldOpsPerSec?: number): void {
    const state = this.stateOf(labels);
    state.running = false;
    state.verdict = verdict;
    if (highestHeldOpsPerSec !== undefined) state.highestHeldOpsPerSec = highestHeldOpsPerSec;
  }
}

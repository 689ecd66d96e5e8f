/**
 * A progress bar for long scenario steps (seeding a dataset), on stderr so stdout (tables, the
 * data a user pipes on) stays clean.
 *
 * On a terminal the bar redraws in place (`\r`, at most ten times a second). When stderr is a
 * pipe or a file it never writes a carriage return or an escape code: one plain line every few
 * seconds and one at the end, so a log reads as text. Each line shows done/total, the
 * percentage, the rate so far and the estimated time left.
 */
import { formatCount, formatDuration } from './format.ts';

export interface ProgressOptions {
  /** Shown first, e.g. `[redis persons seed]`. */
  label: string;
  total: number;
  /** What is counted, e.g. `docs`. */
  unit: string;
  /** Where the bar goes; default stderr. */
  write?: (text: string) => void;
  /** Redraw in place? Default: whether stderr is a terminal. */
  isTTY?: boolean;
  /** Seconds between lines when not redrawing in place; default 5. */
  lineIntervalSeconds?: number;
  /** Clock in ms; default performance.now (tests pass their own). */
  now?: () => number;
}

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

export class ProgressBar {
  private done = 0;
  private readonly startMs: number;
  private lastDrawMs = Number.NEGATIVE_INFINITY;
  private drewInPlace = false;
  private finished = false;
  private readonly write: (text: string) => void;
  private readonly isTTY: boolean;
  private readonly intervalMs: number;
  private readonly now: () => number;

  constructor(private readonly options: ProgressOptions) {
    this.write = options.write ?? ((text) => process.stderr.write(text));
    this.isTTY = options.isTTY ?? Boolean(process.stderr.isTTY);
    this.intervalMs = this.isTTY ? REDRAW_MS : (options.lineIntervalSeconds ?? 5) * 1000;
    this.now = options.now ?? (() => performance.now());
    this.startMs = this.now();
    // The first piped line waits a full interval: a short step prints only its final line.
    if (!this.isTTY) this.lastDrawMs = this.startMs;
  }

  /** Count `n` more units done; redraws when due. */
  advance(n: number): void {
    this.done += n;
    const now = this.now();
    if (now - this.lastDrawMs >= this.intervalMs) this.draw(now);
  }

  /** Draw the final state and end the line. Safe to call twice. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.draw(this.now());
    if (this.drewInPlace) this.write('\n');
  }

  /** The current line, without control characters (exposed for tests). */
  line(now = this.now()): string {
    const { total, unit, label } = this.options;
    const fraction = total > 0 ? Math.min(1, this.done / total) : 1;
    const filled = Math.round(fraction * BAR_WIDTH);
    const seconds = (now - this.startMs) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const left = rate > 0 ? (total - this.done) / rate : Number.POSITIVE_INFINITY;
    const eta =
      this.done >= total
        ? `done in ${formatDuration(seconds)}`
        : Number.isFinite(left)
          ? `ETA ${formatDuration(left)}`
          : 'ETA unknown';
    return (
      `${label} [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}% ` +
      `${formatCount(this.done)}/${formatCount(total)} ${unit}, ${formatCount(Math.round(rate))} ${unit}/s, ${eta}`
    );
  }

  private draw(now: number): void {
    this.lastDrawMs = now;
    if (this.isTTY) {
      this.write(`\r\x1b[K${this.line(now)}`);
      this.drewInPlace = true;
    } else {
      this.write(`${this.line(now)}\n`);
    }
  }
}

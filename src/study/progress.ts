/**
 * Progress across a whole sweep: a bar, cells done of all, elapsed time and an ETA from the
 * average time of the cells run so far in this session (resumed cells cost nothing).
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  if (s < 2 * 86_400) return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
  return `${Math.floor(s / 86_400)}d${String(Math.floor((s % 86_400) / 3600)).padStart(2, '0')}h`;
}

export class SweepProgress {
  private readonly started = Date.now();
  private ran = 0;

  constructor(
    private readonly total: number,
    private done: number,
    private readonly write: (line: string) => void = (line) => process.stderr.write(line),
  ) {}

  /** A cell finished: one line with the bar and the ETA. */
  cellDone(what: string): void {
    this.done += 1;
    this.ran += 1;
    const elapsed = (Date.now() - this.started) / 1000;
    const eta = (elapsed / this.ran) * (this.total - this.done);
    const width = 20;
    const filled = Math.round((this.done / this.total) * width);
    const percent = Math.floor((this.done / this.total) * 100);
    this.write(
      `[sweep ${'#'.repeat(filled)}${'.'.repeat(width - filled)} ${this.done}/${this.total} ${percent}%] ${what} · elapsed ${formatDuration(elapsed)} · ETA ${formatDuration(eta)}\n`,
    );
  }
}

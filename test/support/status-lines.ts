/**
 * Reading a run's progress from the status lines it prints on stderr (one a second with
 * status.interval=1: `… 12 sec: 2400 operations; 200.0 current ops/sec; p99 …`), for tests that
 * act on a running docbench: kill a server after a few seconds, stop the run once it recovered.
 */

/** The status lines in a run's stderr so far. */
function linesOf(stderr: string): string[] {
  return stderr.split('\n').filter((line) => / \d+ sec: /.test(line));
}

/** How many status lines (seconds of the run) have been printed so far. */
export function statusLines(stderr: string): number {
  return linesOf(stderr).length;
}

/**
 * Whether the last `seconds` status lines each show work done and no failure: the store serves
 * again. A test then stops a run that would otherwise go on for its whole time budget, so a slow
 * restart on a loaded machine has all the time it needs and a quick one costs no idle minute.
 */
export function servingFor(stderr: string, seconds: number): boolean {
  const last = linesOf(stderr).slice(-seconds);
  return (
    last.length === seconds && last.every((line) => !/errors now/.test(line) && !/ 0\.0 current ops\/sec/.test(line))
  );
}

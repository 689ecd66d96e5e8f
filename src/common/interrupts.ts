/**
 * Ctrl-C and SIGTERM during a run. The first signal stops every run in progress as its control
 * says (workers finish the operation in hand and start no other, within a bounded drain), so the
 * command still prints its YCSB text and writes its result, marked partial; commands look at
 * `interrupts.signal` between their steps (a comparison's next workload) and start nothing new.
 * A second signal exits at once: `onForcedExit` hooks (removing the temporary file of a write
 * in progress) run first, so no half-written file is left behind. A command that has nothing to
 * save (no run in progress, and it holds no `hold()`) exits at the first signal, as it always did.
 *
 * Exit codes are the shell's: 128 + the signal's number (SIGINT 130, SIGTERM 143).
 */
/** A run in progress that a signal stops (the runner's RunControl): interrupts need no more of it. */
export interface Stoppable {
  stop(reason: RunSignal): void;
}

export type RunSignal = 'SIGINT' | 'SIGTERM';

const EXIT_CODES: Record<RunSignal, number> = { SIGINT: 130, SIGTERM: 143 };

class Interrupts {
  /** The first signal received, once one was. */
  signal: RunSignal | undefined;
  private readonly controls = new Set<Stoppable>();
  private readonly forcedExitHooks = new Set<() => void>();
  private readonly signalHooks = new Set<(signal: RunSignal) => void>();
  private holds = 0;
  private readonly listeners = new Map<RunSignal, () => void>();
  // On a terminal the status line is redrawn in place: the notice starts on a line of its own.
  private notice: (text: string) => void = (text) => process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}${text}`);

  /** Handle SIGINT and SIGTERM in this process (the CLI does, for the length of a command). */
  install(notice?: (text: string) => void): void {
    if (notice) this.notice = notice;
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      if (this.listeners.has(signal)) continue;
      const listener = () => this.receive(signal);
      this.listeners.set(signal, listener);
      process.on(signal, listener);
    }
  }

  /** Stop handling signals and forget any received (a command is over). */
  uninstall(): void {
    for (const [signal, listener] of this.listeners) process.off(signal, listener);
    this.listeners.clear();
    this.signal = undefined;
    this.controls.clear();
    this.holds = 0;
  }

  /**
   * Run `body` as a command that saves what it did when interrupted (it looks at `signal` between
   * its steps): a first signal then stops its runs instead of exiting.
   */
  async holding<T>(body: () => Promise<T>): Promise<T> {
    this.holds++;
    try {
      return await body();
    } finally {
      this.holds--;
    }
  }

  /** Told of the first signal (a child process to stop gracefully). Returns the function that forgets it. */
  onSignal(hook: (signal: RunSignal) => void): () => void {
    this.signalHooks.add(hook);
    return () => this.signalHooks.delete(hook);
  }

  /** The exit code for the signal received, if any. */
  get exitCode(): number | undefined {
    return this.signal === undefined ? undefined : EXIT_CODES[this.signal];
  }

  /** A run in progress: a signal stops it. Returns the function that forgets it when the run is over. */
  watch(control: Stoppable): () => void {
    if (this.signal !== undefined) control.stop(this.signal);
    this.controls.add(control);
    return () => this.controls.delete(control);
  }

  /** Something to undo before a forced exit (a temporary file). Returns the function that forgets it. */
  onForcedExit(hook: () => void): () => void {
    this.forcedExitHooks.add(hook);
    return () => this.forcedExitHooks.delete(hook);
  }

  /** For tests and embedders: act as if the signal was received. */
  receive(signal: RunSignal): void {
    if (this.signal !== undefined || (this.holds === 0 && this.controls.size === 0)) {
      if (this.signal !== undefined) this.notice(`docbench: ${signal} again: exiting at once\n`);
      this.exitNow(EXIT_CODES[this.signal ?? signal]);
    }
    this.signal = signal;
    this.notice(
      `docbench: ${signal}: stopping; the operations in flight finish, then the partial result is written (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to exit at once)\n`,
    );
    for (const control of this.controls) control.stop(signal);
    for (const hook of this.signalHooks) hook(signal);
  }

  private exitNow(code: number): never {
    for (const hook of this.forcedExitHooks) {
      try {
        hook();
      } catch {
        // Exiting regardless: a hook that fails must not keep the process alive.
      }
    }
    process.exit(code);
  }
}

export const interrupts = new Interrupts();

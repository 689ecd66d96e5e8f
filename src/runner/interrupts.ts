/**
 * Ctrl-C and SIGTERM during a run. The first signal stops every run in progress as its control
 * says (workers finish the operation in hand and start no other, within a bounded drain), so the
 * command still prints its YCSB text and writes its result, marked partial; commands look at
 * `interrupts.signal` between their steps (a comparison's next workload) and start nothing new.
 * A second signal exits at once: `onForcedExit` hooks (removing the temporary file of a write
 * in progress) run first, so no half-written file is left behind.
 *
 * Exit codes are the shell's: 128 + the signal's number (SIGINT 130, SIGTERM 143).
 */
import type { RunControl } from './run-control.ts';

export type RunSignal = 'SIGINT' | 'SIGTERM';

const EXIT_CODES: Record<RunSignal, number> = { SIGINT: 130, SIGTERM: 143 };

class Interrupts {
  /** The first signal received, once one was. */
  signal: RunSignal | undefined;
  private readonly controls = new Set<RunControl>();
  private readonly forcedExitHooks = new Set<() => void>();
  private readonly listeners = new Map<RunSignal, () => void>();
  private notice: (text: string) => void = (text) => process.stderr.write(text);

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
  }

  /** The exit code for the signal received, if any. */
  get exitCode(): number | undefined {
    return this.signal === undefined ? undefined : EXIT_CODES[this.signal];
  }

  /** A run in progress: a signal stops it. Returns the function that forgets it when the run is over. */
  watch(control: RunControl): () => void {
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
    if (this.signal !== undefined) {
      this.notice(`\ndocbench: ${signal} again: exiting at once\n`);
      for (const hook of this.forcedExitHooks) {
        try {
          hook();
        } catch {
          // Exiting regardless: a hook that fails must not keep the process alive.
        }
      }
      process.exit(EXIT_CODES[this.signal]);
    }
    this.signal = signal;
    this.notice(`\ndocbench: ${signal}: stopping; the operations in flight finish, then the partial result is written (${signal === 'SIGINT' ? 'Ctrl-C' : 'SIGTERM'} again to exit at once)\n`);
    for (const control of this.controls) control.stop(signal);
  }
}

export const interrupts = new Interrupts();

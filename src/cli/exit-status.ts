/**
 * A command that did its work and must still end with a code other than 0 or 2: `docbench diff`
 * exits 1 when it found a regression (a CI job fails on it). Not an error: main() returns the
 * code and prints nothing more.
 */
export class ExitStatus extends Error {
  constructor(readonly code: number) {
    super(`exit status ${code}`);
    this.name = 'ExitStatus';
  }
}

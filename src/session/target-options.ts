/**
 * `--url` (repeatable) and `--config`: the same on every command that touches stores, whichever
 * layer registers it (the CLI's own commands, each scenario's commands), so every command names
 * its stores' servers the same way. StoreTargets (store-targets.ts) resolves what they say.
 */
import { Option, type Command } from 'commander';

export function addTargetOptions(command: Command, { several }: { several: boolean }): Command {
  const urlHelp = several
    ? "a store's server as <store>=URL, repeatable (e.g. --url couchdb=http://admin:pw@host:5984); default: the config file's, else docbench's local server, started if needed"
    : "the store's server: URL, or <store>=URL; default: the config file's, else docbench's local server, started if needed";
  return command
    .addOption(
      new Option('--url <url>', urlHelp).argParser((value: string, previous: string[] | undefined) => [
        ...(previous ?? []),
        value,
      ]),
    )
    .option(
      '--config <file>',
      'config file with stores, URLs and settings (default: ./docbench.config.json when it exists)',
    );
}

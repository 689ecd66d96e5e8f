/**
 * How many worker processes a YCSB phase runs in, and why, in words the result keeps.
 *
 * `auto` (the default) spreads the workers over one process per core when every store of the
 * command is remote (reached by `--url`, the config file or `--docker`): the client then has the
 * machine to itself, and one event loop would measure the client's limit, not the store's. When a
 * local server (or the in-process BasicDB) shares the machine, more client processes would only
 * take cores from the server under test, so `auto` keeps one. A number given by `--processes` or
 * the `processes` property is used as given. Never more processes than workers (`threadcount`).
 */
import { availableParallelism } from 'node:os';

export type ProcessesSetting = number | 'auto';

export interface ProcessesChoice {
  processes: number;
  /** One sentence for the result: the setting, and what it resolved to. */
  reason: string;
}

export interface ProcessesInput {
  /** `--processes` (undefined: not given). */
  flag?: ProcessesSetting | undefined;
  /** The `processes` workload property (undefined: not set). */
  property?: ProcessesSetting | undefined;
  threadcount: number;
  /** Stores of the command that docbench starts on this machine (empty: every store is remote). */
  localStores: readonly string[];
  /** Cores of this machine (os.availableParallelism() unless a test says otherwise). */
  cores?: number;
}

export function chooseProcesses(input: ProcessesInput): ProcessesChoice {
  const { flag, property, threadcount } = input;
  const given =
    flag !== undefined
      ? { value: flag, by: '--processes' }
      : property !== undefined
        ? { value: property, by: 'processes property' }
        : { value: 'auto' as const, by: 'default' };
  if (given.value !== 'auto') {
    const processes = Math.min(given.value, threadcount);
    const capped = processes < given.value ? `, capped by threadcount ${threadcount}` : '';
    return {
      processes,
      reason: `${processes} process${processes > 1 ? 'es' : ''}: ${given.by} ${given.value}${capped}`,
    };
  }
  const how = given.by === 'default' ? 'auto (the default)' : `auto (${given.by})`;
  if (input.localStores.length > 0) {
    const local = input.localStores;
    return {
      processes: 1,
      reason: `1 process: ${how}, because ${local.join(', ')} run${local.length > 1 ? '' : 's'} on this machine and share${local.length > 1 ? '' : 's'} its cores with the client`,
    };
  }
  const cores = input.cores ?? availableParallelism();
  const processes = Math.max(1, Math.min(cores, threadcount));
  const cap = cores > threadcount ? `, capped by threadcount ${threadcount}` : '';
  return {
    processes,
    reason: `${processes} process${processes > 1 ? 'es' : ''}: ${how}, every store is remote, so one per core (${cores} cores${cap})`,
  };
}

/**
 * `docbench up`, `down` and `status`: the local servers (and Docker's), their registration; the
 * work is src/cli/targets-command.ts.
 */
import type { Command } from 'commander';
import { nonNegativeInteger, positiveInteger } from '../common/option-parsers.ts';
import { UsageError } from '../common/user-error.ts';

export function registerServerCommands(program: Command): void {
  program
    .command('up')
    .description('install on demand and start local servers on 127.0.0.1 (default: all)')
    .argument('[stores...]', 'stores to start')
    .option('--docker', 'start the real servers under Docker (docker/compose.yaml) instead', false)
    .option(
      '--nodes <n>',
      'a local cluster of n nodes (redis: n masters; cassandra: n nodes on 127.0.0.1 … 127.0.0.n, replication factor min(3, n)); stand-ins run one node',
      positiveInteger('--nodes'),
    )
    .option(
      '--replicas <r>',
      'redis with --nodes: replicas of each master (default 0)',
      nonNegativeInteger('--replicas'),
    )
    .action(async (stores: string[], opts: { docker: boolean; nodes?: number; replicas?: number }) => {
      if (opts.docker && (opts.nodes !== undefined || opts.replicas !== undefined))
        throw new UsageError(
          '--nodes and --replicas start local clusters; docker/compose.yaml runs one node of each store',
        );
      const { up, upDocker } = await import('./targets-command.ts');
      await (opts.docker
        ? upDocker(stores)
        : up(stores, {
            ...(opts.nodes !== undefined ? { nodes: opts.nodes } : {}),
            ...(opts.replicas !== undefined ? { replicas: opts.replicas } : {}),
          }));
    });
  program
    .command('down')
    .description('stop the local servers docbench started (default: all)')
    .argument('[stores...]', 'stores to stop')
    .option('--docker', 'stop the Docker containers of docker/compose.yaml instead', false)
    .action(async (stores: string[], opts: { docker: boolean }) => {
      const { down, downDocker } = await import('./targets-command.ts');
      await (opts.docker ? downDocker(stores) : down(stores));
    });
  program
    .command('status')
    .description('show the local servers, their URLs and what each one is')
    .option('--json', 'print the servers as JSON (store, running, pid, url, product) for scripts', false)
    .action(async (opts: { json: boolean }) => (await import('./targets-command.ts')).status(opts));
}

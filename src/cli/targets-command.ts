import { DOCKER_URLS, dockerDown, dockerUp } from '../local/docker.ts';
import { LOCAL_TARGET_NAMES, localTarget } from '../local/targets.ts';
import { UsageError } from './errors.ts';
import { maskUrl } from '../common/mask-url.ts';

const log = (line: string) => process.stderr.write(`${line}\n`);

function checkDockerStores(stores: readonly string[]): void {
  for (const s of stores) if (!(s in DOCKER_URLS)) throw new UsageError(`unknown store "${s}" for --docker; expected some of ${Object.keys(DOCKER_URLS).join(', ')}`);
}

/**
 * `docbench up --docker [store…]`: the real servers under Docker, and each one's `--url store=URL`
 * (password masked: it is the one docker/compose.yaml sets; `--docker` fills it in).
 */
export async function upDocker(stores: readonly string[]): Promise<void> {
  checkDockerStores(stores);
  dockerUp(stores);
  for (const name of stores.length > 0 ? stores : Object.keys(DOCKER_URLS)) process.stdout.write(`${name.padEnd(10)} up    --url ${name}=${maskUrl(DOCKER_URLS[name]!)}  (Docker, official image)\n`);
  process.stdout.write('Use them with --docker (e.g. docbench compare --docker), or give --url <store>=URL with the password docker/compose.yaml sets.\n');
}

export async function downDocker(stores: readonly string[]): Promise<void> {
  checkDockerStores(stores);
  dockerDown(stores);
}

/** `docbench up [store…]`: install on demand and start local servers (all of them by default). */
export async function up(stores: readonly string[]): Promise<void> {
  const names = stores.length > 0 ? stores : LOCAL_TARGET_NAMES;
  for (const name of names) {
    const target = await localTarget(name);
    const status = await target.start(log);
    const info = await target.info();
    const how = status.started === false ? 'already running' : 'started';
    process.stdout.write(`${name.padEnd(10)} up    ${maskUrl(status.url)}  ${info.product}${info.standIn ? '  [stand-in]' : ''}  (${how}, pid ${status.pid})
`);
  }
}

/** `docbench down [store…]`: stop the local servers docbench started (by pid file, never anything else). */
export async function down(stores: readonly string[]): Promise<void> {
  const names = stores.length > 0 ? stores : LOCAL_TARGET_NAMES;
  for (const name of names) {
    const target = await localTarget(name);
    const before = await target.status();
    await target.stop(log);
    process.stdout.write(`${name.padEnd(10)} ${before.pid !== null ? 'stopped' : 'was not running'}\n`);
  }
}

/** `docbench status`: each local target, whether it runs, its URL, what it is. */
export async function status(): Promise<void> {
  for (const name of LOCAL_TARGET_NAMES) {
    const target = await localTarget(name);
    const s = await target.status();
    const info = await target.info();
    const state = s.running ? `running (pid ${s.pid})` : 'stopped';
    process.stdout.write(`${name.padEnd(10)} ${state.padEnd(20)} ${maskUrl(s.url)}  ${info.product}${info.standIn ? '  [stand-in]' : ''}
`);
    if (s.note) process.stdout.write(`${''.padEnd(10)} ${s.note}
`);
    if (info.limits) process.stdout.write(`${''.padEnd(10)} ${info.limits}\n`);
  }
}

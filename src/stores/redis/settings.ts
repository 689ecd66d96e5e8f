/**
 * The store's settings (`-p redis.<name>=<value>`), declared once, and the typed configuration
 * the store is built from: the checked URL plus the settings.
 *
 * There is no pool sized from `StoreOptions.concurrency`: both clients multiplex every command
 * over one connection (Redis answers a connection's commands in order), which is how Redis's
 * docs and both clients' docs say to use them; `redis.connections=N` opens N per client process
 * and uses them in turn (connection-set.ts), for when one connection's round trips are the limit.
 */
import { parseSettings, setting, SettingError, type SettingsOf } from '../../common/settings.ts';
import { parseRedisUrl, type RedisUrl } from './url.ts';

export const REDIS_DRIVERS = ['ioredis', 'node-redis'] as const;
export type RedisDriver = (typeof REDIS_DRIVERS)[number];

/** More connections than this per process only cost CPU (measured: 8 and 16 gave less than 2 or 4). */
export const MAX_CONNECTIONS = 64;

export const SETTINGS = {
  driver: setting.oneOf(REDIS_DRIVERS, {
    fallback: 'node-redis',
    describe: 'the client: node-redis (@redis/client, the default), or ioredis',
  }),
  autopipelining: setting.boolean({
    fallback: false,
    describe: 'ioredis only: coalesce concurrent commands into one socket write',
  }),
  connections: setting.wholeNumber({
    min: 1,
    max: MAX_CONNECTIONS,
    fallback: 1,
    describe: 'connections per client process, used in turn',
  }),
  commandtimeout: setting.wholeNumber({
    min: 1,
    fallback: 30_000,
    describe: 'ms a command may wait for its answer before it fails as TIMEOUT (a stalled server)',
  }),
  wait: setting.text({
    pattern: /^\s*\d+\s*,\s*\d+\s*$/,
    expected: 'replicas,timeoutMs (e.g. 1,100: each YCSB write waits until one replica has it, at most 100 ms)',
    describe:
      "YCSB writes wait for this many replicas (Redis's WAIT), at most timeoutMs; fewer in time fails the write as TIMEOUT",
  }),
};

/** `redis.wait`: Redis's WAIT after each YCSB write. */
export interface RedisWait {
  readonly replicas: number;
  readonly timeoutMs: number;
}

export type RedisSettings = SettingsOf<typeof SETTINGS>;

/** How long a connection attempt may take, the same on both clients (ioredis's own default is 10 s). */
const CONNECT_TIMEOUT_MS = 5000;

export interface RedisConfig {
  readonly url: RedisUrl;
  readonly driver: RedisDriver;
  /** Let the client coalesce concurrent commands into one socket write (ioredis's option). */
  readonly autoPipelining: boolean;
  /** Connections per client process (connection-set.ts); 1, Redis's own advice for Node clients, by default. */
  readonly connections: number;
  readonly connectTimeoutMs: number;
  /** How long a command may wait for its answer on an open connection (`redis.commandtimeout`). */
  readonly commandTimeoutMs: number;
  /** `redis.wait`, when given. */
  readonly wait?: RedisWait;
}

/** The store's configuration from its URL and `redis.*` settings; any bad one is a user error. */
export function redisConfig(url: string, settings: Readonly<Record<string, string>>): RedisConfig {
  const s = parseSettings('redis', SETTINGS, settings);
  if (s.autopipelining && s.driver !== 'ioredis') {
    // node-redis has no such switch: it always writes the commands issued in one tick together.
    throw new SettingError(
      `redis.autopipelining=true: applies to redis.driver=ioredis only (node-redis, the default, always pipelines commands issued together); add -p redis.driver=ioredis`,
    );
  }
  let wait: RedisWait | undefined;
  if (s.wait !== undefined) {
    const [replicas, timeoutMs] = s.wait.split(',').map((part) => Number(part.trim())) as [number, number];
    // WAIT 0 returns at once and WAIT n 0 blocks forever: neither is a bound a run can keep.
    if (replicas < 1 || timeoutMs < 1)
      throw new SettingError(
        `redis.wait=${s.wait}: expected replicas >= 1 and timeoutMs >= 1 (WAIT 0 waits for nothing, a timeout of 0 waits forever)`,
      );
    wait = { replicas, timeoutMs };
  }
  return {
    url: parseRedisUrl(url),
    driver: s.driver,
    autoPipelining: s.autopipelining,
    connections: s.connections,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    commandTimeoutMs: s.commandtimeout,
    ...(wait ? { wait } : {}),
  };
}

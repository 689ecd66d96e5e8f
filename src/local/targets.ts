import { join } from 'node:path';
import { runDir } from './paths.ts';
import { withLockFile } from './process.ts';
import type { LocalTarget } from './target.ts';

/** Stores docbench can run on this machine, in the order `docbench up` starts them. */
const TARGETS: Record<string, () => Promise<LocalTarget>> = {
  redis: async () => (await import('./redis.ts')).redisTarget,
  cassandra: async () => (await import('./cassandra.ts')).cassandraTarget,
  mongodb: async () => (await import('./mongodb.ts')).mongodbTarget,
  couchdb: async () => (await import('./couchdb.ts')).couchdbTarget,
  couchbase: async () => (await import('./couchbase.ts')).couchbaseTarget,
};

export const LOCAL_TARGET_NAMES = Object.keys(TARGETS);

export function hasLocalTarget(store: string): boolean {
  return store in TARGETS;
}

export class UnknownTargetError extends Error {
  constructor(name: string) {
    super(`no local target for "${name}"; expected one of ${LOCAL_TARGET_NAMES.join(', ')}`);
    this.name = 'UnknownTargetError';
  }
}

export async function localTarget(store: string): Promise<LocalTarget> {
  const load = TARGETS[store];
  if (!load) throw new UnknownTargetError(store);
  return serializeStarts(await load());
}

/** The same target, with install/start/stop serialized across processes by a lock file. */
function serializeStarts(target: LocalTarget): LocalTarget {
  const lock = join(runDir(target.store), '.start.lock');
  return {
    store: target.store,
    url: target.url,
    install: (log) => withLockFile(lock, () => target.install(log)),
    start: (log) => withLockFile(lock, () => target.start(log)),
    stop: (log) => withLockFile(lock, () => target.stop(log)),
    status: () => target.status(),
    info: () => target.info(),
  };
}

/**
 * Where each store of a command is, decided once before anything connects:
 *
 *   1. `--url store=URL` (repeatable); a plain `--url URL` when the command names one store;
 *   2. or `--docker`: the real servers of docker/compose.yaml (`docbench up --docker`);
 *   3. the config file (docbench.config.json, or `--config <file>`);
 *   4. else docbench's local server for the store, started if needed.
 *
 * The config file also gives store settings, which go before the command line's `-p` so that
 * `-p` wins. Every URL shown to the user is masked (`maskUrl`).
 */
import { maskUrl } from '../common/mask-url.ts';
import { UsageError } from '../common/user-error.ts';
import { checkDockerEngine, DOCKER_URLS } from '../local/docker.ts';
import { hasLocalTarget } from '../local/targets.ts';
import { isStoreName, UnknownStoreError } from '../stores/stores.ts';
import { loadConfig, type DocbenchConfig } from './config-file.ts';

/** The options every command that touches stores takes (commander's parsed values). */
export interface TargetFlags {
  /** `--url` values as given (undefined: none). */
  url?: readonly string[] | undefined;
  config?: string | undefined;
  docker?: boolean | undefined;
}

export type UrlSource = '--url' | '--docker' | 'config' | 'local';

/** `couchdb=http://…` -> ['couchdb', 'http://…']; a plain URL -> [undefined, url]. */
export function splitUrlFlag(value: string): [string | undefined, string] {
  const match = /^([A-Za-z][A-Za-z0-9_-]*)=(.+)$/s.exec(value);
  return match ? [match[1]!.toLowerCase(), match[2]!] : [undefined, value];
}

export class StoreTargets {
  private constructor(
    private readonly urls: ReadonlyMap<string, { url: string; from: UrlSource }>,
    private readonly config: DocbenchConfig | null,
    private readonly stores: readonly string[],
  ) {}

  /**
   * Resolve `flags` for the stores a command works on; every mistake (a store named twice, a
   * `--url` for a store the command does not run, a plain `--url` with several stores) is a
   * one-line user error before anything starts.
   */
  static resolve(
    flags: TargetFlags,
    stores: readonly string[],
    config: DocbenchConfig | null = loadConfig(flags.config),
  ): StoreTargets {
    const urls = new Map<string, { url: string; from: UrlSource }>();
    // --docker names every store's server already: a --url beside it would silently win or lose.
    const given = flags.url ?? [];
    if (flags.docker && given.length > 0) throw new UsageError('give --url or --docker, not both');
    for (const value of given) {
      const [named, url] = splitUrlFlag(value);
      let store: string;
      if (named === undefined) {
        if (stores.length !== 1) {
          throw new UsageError(
            `--url names one server (${maskUrl(url)}) and this command runs ${stores.length} stores (${stores.join(', ')}): say which with --url <store>=URL`,
          );
        }
        store = stores[0]!;
      } else {
        if (!isStoreName(named)) throw new UnknownStoreError(named, `--url ${named}=…`);
        if (!stores.includes(named))
          throw new UsageError(
            `--url ${named}=…: ${named} is not among the stores this command runs (${stores.join(', ')})`,
          );
        store = named;
      }
      if (urls.has(store)) throw new UsageError(`--url: ${store} is given two URLs; give one`);
      urls.set(store, { url, from: '--url' });
    }
    for (const store of stores) {
      if (urls.has(store)) continue;
      if (flags.docker) {
        const url = DOCKER_URLS[store];
        if (url !== undefined) urls.set(store, { url, from: '--docker' });
        // A store with no container but a local server keeps that server (HBase: Apache publishes
        // no official image, and docbench's local HBase is the real server).
        else if (!hasLocalTarget(store))
          throw new UsageError(`--docker: docker/compose.yaml has no server for "${store}"`);
        continue;
      }
      const configured = isStoreName(store) ? config?.stores.get(store)?.url : undefined;
      if (configured !== undefined) urls.set(store, { url: configured, from: 'config' });
    }
    return new StoreTargets(urls, config, stores);
  }

  /**
   * With --docker, fail before anything starts when no Docker engine runs here, naming Docker
   * (the containers cannot be up then). Called by the commands once they have resolved their stores.
   */
  checkDocker(): this {
    if ([...this.urls.values()].some((u) => u.from === '--docker')) checkDockerEngine();
    return this;
  }

  /** The store's URL, or undefined for docbench's local server. */
  urlOf(store: string): string | undefined {
    return this.urls.get(store)?.url;
  }

  /** Where the store's URL came from. */
  sourceOf(store: string): UrlSource {
    return this.urls.get(store)?.from ?? 'local';
  }

  /**
   * The config file's settings of the command's stores, as `-p` assignments, to go before the
   * command line's own (which win). Each store reads only its own prefix, so one list serves all.
   */
  settings(): string[] {
    return this.stores.flatMap((store) => (isStoreName(store) ? (this.config?.stores.get(store)?.settings ?? []) : []));
  }

  /** One line for stderr: where each store is, passwords masked. */
  describe(): string {
    return this.stores
      .map(
        (s) => `${s}: ${this.urls.has(s) ? `${maskUrl(this.urls.get(s)!.url)} (${this.sourceOf(s)})` : 'local server'}`,
      )
      .join('; ');
  }
}

/** The stores a comparison runs when none is named: the config file's, in its order, else `fallback`. */
export function defaultStores(config: DocbenchConfig | null, fallback: readonly string[]): string[] {
  return config && config.stores.size > 0 ? [...config.stores.keys()] : [...fallback];
}

/** For a command on one store: its URL (undefined: the local server) and the config file's settings. */
export function singleTarget(flags: TargetFlags, store: string): { url?: string; settings: string[] } {
  const targets = StoreTargets.resolve(flags, [store]);
  const url = targets.urlOf(store);
  return { ...(url !== undefined ? { url } : {}), settings: targets.settings() };
}

/**
 * How a scenario finds a store's dialect. Each dialect file exports one `DialectDefinition`
 * naming the store it is written for, with a factory typed for that store's scenario-facing
 * handle (`HandleOf<'couchbase'>`, …); each scenario's `dialects.ts` lists its dialects in a
 * `DialectRegistry`, typed by the STORES table's names, so the compiler checks that the entry
 * for `redis` really is a Redis dialect.
 *
 * The one unchecked step, handing the opened store's handle to the factory, happens here once,
 * after checking that the store is the one the dialect names.
 */
import { UsageError, UserError } from '../../src/common/user-error.ts';
import type { Store } from '../../src/stores/store.ts';
import type { HandleOf, StoreName } from '../../src/stores/stores.ts';

export interface DialectDefinition<K extends StoreName, Context, Dialect> {
  /** The store this dialect is written for. */
  readonly store: K;
  /** The dialect over a connected store's handle. */
  create(handle: HandleOf<K>, context: Context): Dialect;
}

export type DialectLoaders<Context, Dialect> = {
  readonly [K in StoreName]?: () => Promise<DialectDefinition<K, Context, Dialect>>;
};

/** A scenario that does not run on a store. */
export class NoDialectError extends UserError {}

export class DialectRegistry<Context, Dialect> {
  /** The stores this scenario runs on, in the STORES table's order of the registry's listing. */
  readonly stores: readonly StoreName[];

  constructor(
    readonly scenario: string,
    private readonly loaders: DialectLoaders<Context, Dialect>,
    /** Stores the scenario cannot run on, each with why (FerretDB v1 stores no nested arrays). */
    private readonly refused: { readonly [K in StoreName]?: string } = {},
  ) {
    this.stores = Object.keys(loaders) as StoreName[];
  }

  /** `; not on ferretdb: why` for a store the scenario refuses, else nothing. */
  private why(store: string): string {
    const reason = (this.refused as Record<string, string | undefined>)[store];
    return reason === undefined ? '' : `; not on ${store}: ${reason}`;
  }

  runsOn(store: string): store is StoreName {
    return (this.stores as readonly string[]).includes(store);
  }

  /** A comma-separated list of stores given to `flag`: each one this scenario runs on, none twice; else a usage error naming it. */
  storeList(value: string, flag: string): StoreName[] {
    const stores = value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (stores.length === 0) throw new UsageError(`${flag} is empty`);
    for (const s of stores)
      if (!this.runsOn(s))
        throw new UsageError(
          `${flag}: the ${this.scenario} scenario runs on ${this.stores.join(', ')}; got "${s}"${this.why(s)}`,
        );
    const twice = stores.find((s, i) => stores.indexOf(s) !== i);
    if (twice !== undefined) throw new UsageError(`${flag}: "${twice}" is listed twice`);
    return stores as StoreName[];
  }

  /** The dialect for an opened store; a store without one is a user error naming the ones with one. */
  async create(store: Store, context: Context): Promise<Dialect> {
    if (!this.runsOn(store.name)) {
      throw new NoDialectError(
        `the ${this.scenario} scenario runs on ${this.stores.join(', ')}; not on "${store.name}"${this.why(store.name)}`,
      );
    }
    const definition = await this.loaders[store.name]!();
    if (definition.store !== store.name)
      throw new Error(`${this.scenario}: the dialect listed for ${store.name} is written for ${definition.store}`);
    return definition.create(store.handle as never, context);
  }
}

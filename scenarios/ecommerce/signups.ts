/**
 * Sign-ups: the customers a run inserts (YCSB-JSON's mix inserts 5%). They take the indexes
 * after the seeded customers, so the generator (and the oracle) knows each one's country and
 * every field, and their ids sort after every seeded id, so they can only ever extend an
 * id-ordered answer at its end.
 *
 * The ledger remembers which sign-ups were sent and which were acknowledged, by the values the
 * queries filter on (country, zip, previous zip, country and age), so an answer can be checked
 * while inserts are in flight (see `EcommerceOracle`): a query may show a sign-up sent before its
 * answer came back, and a store that reads its own writes must show those acknowledged before the
 * query was sent.
 *
 * Indexes are reserved in the dataset's manifest before they are used: if a run dies, the next
 * one knows how far sign-ups may reach and removes them before it starts, so every run begins
 * on exactly the seeded data.
 */
import { customerCore } from './generator.ts';
import { customerId, type Dataset } from './model.ts';

/** Indexes reserved in the manifest at a time (one manifest write per this many inserts). */
export const SIGNUP_RESERVATION = 1000;

/** What an id-ordered answer may contain beyond the seeded customers. */
export interface SignupView {
  /** Matching sign-ups acknowledged before the query was sent, ascending. */
  acknowledged: readonly string[];
  /** Whether an id is a sign-up that was sent (acknowledged or not) before the answer came back. */
  possible(id: string): boolean;
  /** The store's query sees every acknowledged write (false for eventually consistent indexes). */
  readsOwnWrites: boolean;
}

/** What an unordered answer may contain beyond the seeded customers: how many sign-ups match. */
export interface SignupCount {
  /** Matching sign-ups acknowledged before the query was sent. */
  acknowledged: number;
  /** Matching sign-ups sent so far (an upper bound on what the answer may show). */
  sent(): number;
  possible(id: string): boolean;
  readsOwnWrites: boolean;
}

export const NO_SIGNUPS: SignupView = { acknowledged: [], possible: () => false, readsOwnWrites: true };
export const NO_SIGNUP_COUNT: SignupCount = {
  acknowledged: 0,
  sent: () => 0,
  possible: () => false,
  readsOwnWrites: true,
};

/** The keys a customer is counted under: one per value a query filters on. */
export function signupKeys(dataset: Dataset, index: number): string[] {
  const core = customerCore(dataset, index);
  return [
    `country:${core.countryIndex}`,
    `zip:${core.zipSlot}`,
    `prev:${core.prevZipSlot}`,
    `search:${core.countryIndex}:${core.age}`,
  ];
}

/**
 * What a run's operations and checks need of the sign-ups: the main thread's SignupLedger, or
 * its shared-memory form in a worker thread of a ProcessPool (shared-signups.ts).
 */
export interface Signups {
  allocate(): Promise<number>;
  sent(index: number): void;
  acknowledged(index: number): void;
  /** The insert failed: it may or may not have been written. */
  failed?(index: number): void;
  /** What an id-ordered page of a country may show, as of now (call when the query is sent). */
  view(countryIndex: number, readsOwnWrites: boolean): SignupView;
  /** The same for any predicate over sign-up indexes. */
  viewWhere(matches: (index: number) => boolean, readsOwnWrites: boolean): SignupView;
  /** How many sign-ups under a `signupKeys` key an unordered answer may show, as of now. */
  count(key: string, readsOwnWrites: boolean): SignupCount;
}

export class SignupLedger implements Signups {
  private nextIndex: number;
  private reservedUpTo: number;
  private reserving: Promise<void> | undefined;
  private readonly sentIds = new Set<string>();
  private readonly sentByKey = new Map<string, number>();
  private readonly acknowledgedByKey = new Map<string, number>();
  private readonly acknowledgedByCountry = new Map<number, string[]>();
  /** Every acknowledged sign-up, in acknowledgement order. */
  private readonly acknowledgedIndexes: number[] = [];

  /**
   * @param reserve persists "sign-ups may reach index `upTo`" before any index below it is used
   */
  constructor(
    private readonly dataset: Dataset,
    private readonly reserve: (upTo: number) => Promise<void>,
  ) {
    this.nextIndex = dataset.customers;
    this.reservedUpTo = dataset.customers;
  }

  /** The next sign-up's index, reserving more indexes first when the reservation is used up. */
  async allocate(): Promise<number> {
    while (this.nextIndex >= this.reservedUpTo) {
      if (this.reserving === undefined) {
        const upTo = this.reservedUpTo + SIGNUP_RESERVATION;
        this.reserving = this.reserve(upTo).then(
          () => {
            this.reservedUpTo = upTo;
            this.reserving = undefined;
          },
          (error: unknown) => {
            this.reserving = undefined;
            throw error;
          },
        );
      }
      await this.reserving;
    }
    return this.nextIndex++;
  }

  /** First index not handed out: sign-ups are exactly [first, end). */
  end(): number {
    return this.nextIndex;
  }

  sent(index: number): void {
    this.sentIds.add(customerId(index));
    for (const key of signupKeys(this.dataset, index)) this.sentByKey.set(key, (this.sentByKey.get(key) ?? 0) + 1);
  }

  acknowledged(index: number): void {
    const id = customerId(index);
    for (const key of signupKeys(this.dataset, index))
      this.acknowledgedByKey.set(key, (this.acknowledgedByKey.get(key) ?? 0) + 1);
    this.acknowledgedIndexes.push(index);
    const country = customerCore(this.dataset, index).countryIndex;
    let ids = this.acknowledgedByCountry.get(country);
    if (ids === undefined) this.acknowledgedByCountry.set(country, (ids = []));
    // Acknowledgements arrive out of order under concurrency; keep each list ascending.
    let at = ids.length;
    while (at > 0 && ids[at - 1]! > id) at--;
    ids.splice(at, 0, id);
  }

  /** What an id-ordered page of a country may show, as of now (call when the query is sent). */
  view(countryIndex: number, readsOwnWrites: boolean): SignupView {
    const acknowledged = [...(this.acknowledgedByCountry.get(countryIndex) ?? [])];
    return { acknowledged, possible: (id) => this.sentIds.has(id), readsOwnWrites };
  }

  /** The same for any predicate (a scan over the acknowledged sign-ups: few, and only where an answer can reach them). */
  viewWhere(matches: (index: number) => boolean, readsOwnWrites: boolean): SignupView {
    const acknowledged = this.acknowledgedIndexes
      .filter(matches)
      .sort((a, b) => a - b)
      .map(customerId);
    return { acknowledged, possible: (id) => this.sentIds.has(id), readsOwnWrites };
  }

  /** How many sign-ups under `key` an unordered answer may show, as of now (call when the query is sent). */
  count(key: string, readsOwnWrites: boolean): SignupCount {
    return {
      acknowledged: this.acknowledgedByKey.get(key) ?? 0,
      sent: () => this.sentByKey.get(key) ?? 0,
      possible: (id) => this.sentIds.has(id),
      readsOwnWrites,
    };
  }
}

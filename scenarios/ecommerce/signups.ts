/**
 * Sign-ups: the customers a run inserts (YCSB-JSON's mix inserts 5%). They take the indexes
 * after the seeded customers, so the generator (and the oracle) knows each one's country and
 * every field, and their ids sort after every seeded id, so they can only ever extend a
 * pagination page at its end.
 *
 * The ledger remembers which sign-ups were sent and which were acknowledged, per country, so a
 * page can be checked while inserts are in flight (see `EcommerceOracle.checkPage`).
 *
 * Indexes are reserved in the dataset's manifest before they are used: if a run dies, the next
 * one knows how far sign-ups may reach and removes them before it starts, so every run begins
 * on exactly the seeded data.
 */
import { customerCore } from './generator.ts';
import { customerId } from './model.ts';
import type { SignupView } from './oracle.ts';

/** Indexes reserved in the manifest at a time (one manifest write per this many inserts). */
export const SIGNUP_RESERVATION = 1000;

export class SignupLedger {
  private nextIndex: number;
  private reservedUpTo: number;
  private reserving: Promise<void> | undefined;
  private readonly sentIds = new Set<string>();
  private readonly acknowledgedByCountry = new Map<string, string[]>();

  /**
   * @param first the first index to use (the seeded customer count)
   * @param reserve persists "sign-ups may reach index `upTo`" before any index below it is used
   */
  constructor(
    private readonly seed: number,
    first: number,
    private readonly reserve: (upTo: number) => Promise<void>,
  ) {
    this.nextIndex = first;
    this.reservedUpTo = first;
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
  }

  acknowledged(index: number): void {
    const id = customerId(index);
    const country = customerCore(this.seed, index).country;
    let ids = this.acknowledgedByCountry.get(country);
    if (ids === undefined) this.acknowledgedByCountry.set(country, (ids = []));
    // Acknowledgements arrive out of order under concurrency; keep each list ascending.
    let at = ids.length;
    while (at > 0 && ids[at - 1]! > id) at--;
    ids.splice(at, 0, id);
  }

  /** What a page of `country` may show, as of now (call when the query is sent). */
  view(country: string, readsOwnWrites: boolean): SignupView {
    const acknowledged = [...(this.acknowledgedByCountry.get(country) ?? [])];
    return { acknowledged, possible: (id) => this.sentIds.has(id), readsOwnWrites };
  }
}

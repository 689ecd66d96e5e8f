/**
 * Sign-ups across the worker threads of a ProcessPool. The indexes are handed out by the main
 * thread's SignupLedger (it reserves them in the dataset's manifest); each sign-up's state (sent,
 * acknowledged, failed) is kept in shared memory, so a query checked in one thread knows what
 * every thread had inserted when the query was sent.
 *
 * Each thread keeps tallies of the settled sign-ups (those below the first one still unsettled),
 * by the same keys as the SignupLedger, as it passes them; the few beyond (in flight) are looked
 * at anew each time a view or a count is asked for.
 */
import { customerCore } from './generator.ts';
import { customerId, customerIndexOf, type Dataset } from './model.ts';
import { signupKeys, type SignupCount, type Signups, type SignupView } from './signups.ts';

const SENT = 1;
const ACKNOWLEDGED = 2;
const FAILED = 3;
/** Sign-ups a time-bound run can track (a count-bound run needs at most operationcount). */
const MAX_TRACKED_SIGNUPS = 1 << 24;

export interface SharedSignupsState {
  /** [0] how many sign-up indexes were handed out (int32), then one state byte per sign-up. */
  buffer: SharedArrayBuffer;
  first: number;
  capacity: number;
}

/** Main thread: shared memory for the sign-ups of one run. */
export function newSignupState(first: number, operationcount: number): SharedSignupsState {
  const capacity = operationcount > 0 ? Math.min(operationcount, MAX_TRACKED_SIGNUPS) : MAX_TRACKED_SIGNUPS;
  return { buffer: new SharedArrayBuffer(4 + capacity), first, capacity };
}

/** Main thread: an index the ledger handed out, from now on visible to every thread's views. */
export function handOut(state: SharedSignupsState, index: number): number {
  const slot = index - state.first;
  if (slot >= state.capacity)
    throw new Error(`more than ${state.capacity} sign-ups in one run: run for a shorter time or set operationcount`);
  const handedOut = new Int32Array(state.buffer, 0, 1);
  if (slot + 1 > Atomics.load(handedOut, 0)) Atomics.store(handedOut, 0, slot + 1);
  return index;
}

/** A worker thread's side of the sign-ups (a Signups for its operations and checks). */
export class SharedSignups implements Signups {
  private readonly handedOut: Int32Array;
  private readonly states: Uint8Array;
  private settled = 0;
  private readonly sentByKey = new Map<string, number>();
  private readonly acknowledgedByKey = new Map<string, number>();
  /** Settled acknowledged sign-ups, ascending (they are passed in index order). */
  private readonly acknowledgedIndexes: number[] = [];
  private readonly byCountry = new Map<number, string[]>();

  constructor(
    private readonly state: SharedSignupsState,
    private readonly dataset: Dataset,
    readonly allocate: () => Promise<number>,
  ) {
    this.handedOut = new Int32Array(state.buffer, 0, 1);
    this.states = new Uint8Array(state.buffer, 4, state.capacity);
  }

  sent(index: number): void {
    Atomics.store(this.states, index - this.state.first, SENT);
  }

  acknowledged(index: number): void {
    Atomics.store(this.states, index - this.state.first, ACKNOWLEDGED);
  }

  failed(index: number): void {
    Atomics.store(this.states, index - this.state.first, FAILED);
  }

  view(countryIndex: number, readsOwnWrites: boolean): SignupView {
    const acknowledged = [...(this.advance().byCountry.get(countryIndex) ?? [])];
    for (const index of this.inFlight(ACKNOWLEDGED))
      if (customerCore(this.dataset, index).countryIndex === countryIndex) acknowledged.push(customerId(index));
    return { acknowledged, possible: (id) => this.wasSent(id), readsOwnWrites };
  }

  viewWhere(matches: (index: number) => boolean, readsOwnWrites: boolean): SignupView {
    const indexes = [...this.advance().acknowledgedIndexes, ...this.inFlight(ACKNOWLEDGED)].filter(matches);
    return { acknowledged: indexes.map(customerId), possible: (id) => this.wasSent(id), readsOwnWrites };
  }

  count(key: string, readsOwnWrites: boolean): SignupCount {
    const keyed = (state: number) =>
      this.inFlight(state).filter((index) => signupKeys(this.dataset, index).includes(key)).length;
    const acknowledged = (this.advance().acknowledgedByKey.get(key) ?? 0) + keyed(ACKNOWLEDGED);
    // Sent: every settled sign-up was sent (a failed one may have been written), and those in flight.
    const sent = () => (this.advance().sentByKey.get(key) ?? 0) + keyed(SENT) + keyed(ACKNOWLEDGED) + keyed(FAILED);
    return { acknowledged, sent, possible: (id) => this.wasSent(id), readsOwnWrites };
  }

  /** Pass the sign-ups settled since the last call into the tallies. */
  private advance(): this {
    const end = Atomics.load(this.handedOut, 0);
    while (this.settled < end) {
      const state = Atomics.load(this.states, this.settled);
      if (state !== ACKNOWLEDGED && state !== FAILED) break;
      const index = this.state.first + this.settled;
      const keys = signupKeys(this.dataset, index);
      for (const key of keys) this.sentByKey.set(key, (this.sentByKey.get(key) ?? 0) + 1);
      if (state === ACKNOWLEDGED) {
        for (const key of keys) this.acknowledgedByKey.set(key, (this.acknowledgedByKey.get(key) ?? 0) + 1);
        this.acknowledgedIndexes.push(index);
        const country = customerCore(this.dataset, index).countryIndex;
        let ids = this.byCountry.get(country);
        if (ids === undefined) this.byCountry.set(country, (ids = []));
        ids.push(customerId(index));
      }
      this.settled++;
    }
    return this;
  }

  /** Sign-ups beyond the settled ones in a given state now, ascending. */
  private inFlight(state: number): number[] {
    const end = Atomics.load(this.handedOut, 0);
    const found: number[] = [];
    for (let slot = this.settled; slot < end; slot++)
      if (Atomics.load(this.states, slot) === state) found.push(this.state.first + slot);
    return found;
  }

  private wasSent(id: string): boolean {
    const slot = customerIndexOf(id) - this.state.first;
    return slot >= 0 && slot < this.state.capacity && Atomics.load(this.states, slot) !== 0;
  }
}

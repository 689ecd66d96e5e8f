/**
 * Read-backs: a sample of the writes a run makes (customer updates and sign-ups) is read back
 * right after the store acknowledged it and checked, so a store that acknowledges a write it
 * did not make (or makes another one) fails the run like a wrong query answer would. A sign-up
 * must read back exactly as generated. An updated customer must hold the values of the update
 * just acknowledged, unless another update of the same customer overlapped it (sent while it was
 * in flight, or before its read-back answered): which of those won is then the store's
 * business, and the values must be one of the updates sent.
 *
 * Across the worker threads of a ProcessPool another thread may update the same customer at any
 * time, unseen by this thread's ledger: there a read-back accepts any update's values (the
 * immutable fields are still checked exactly).
 */
import { Random } from '../../src/workload/random.ts';
import { customerPatch } from './generator.ts';
import type { CustomerPatch } from './model.ts';

/** A separate stream, so sampling read-backs never moves the run's parameter sequence. */
const SAMPLE_STREAM = 0x72626b;

interface CustomerWrites {
  /** Versions of every update sent for the customer. */
  versions: number[];
  /** Updates in flight now. */
  inFlight: number;
}

/** One update, from its send to its read-back. */
export interface UpdateTicket {
  index: number;
  version: number;
  /** Another update of the customer was in flight when this one was sent. */
  overlapped: boolean;
  /** Updates sent for the customer up to and including this one. */
  sentBefore: number;
}

export class WriteLedger {
  private readonly random: Random;
  private readonly customers = new Map<number, CustomerWrites>();

  constructor(
    private readonly seed: number,
    runSeed: number,
    /** Share of acknowledged writes read back, 0 … 1. */
    private readonly sampleShare: number,
    /** This ledger sees every update of the run (false in a worker thread of a ProcessPool). */
    private readonly seesAllUpdates = true,
  ) {
    this.random = new Random(runSeed, SAMPLE_STREAM);
  }

  /** Whether this acknowledged write is read back. */
  sample(): boolean {
    return this.sampleShare > 0 && (this.sampleShare >= 1 || this.random.nextDouble() < this.sampleShare);
  }

  /** Call when an update is sent. */
  updateSent(index: number, version: number): UpdateTicket {
    let writes = this.customers.get(index);
    if (writes === undefined) this.customers.set(index, (writes = { versions: [], inFlight: 0 }));
    const overlapped = writes.inFlight > 0;
    writes.inFlight++;
    writes.versions.push(version);
    return { index, version, overlapped, sentBefore: writes.versions.length };
  }

  /** Call when an update is answered (acknowledged or failed). */
  updateDone(ticket: UpdateTicket): void {
    this.customers.get(ticket.index)!.inFlight--;
  }

  /**
   * The values a read-back of `ticket`'s customer may show, called when the read-back answered:
   * exactly the update's own, unless another update of the customer overlapped it; then any
   * update sent for the customer (or the seeded values, if a failed update is among them).
   * Undefined: any update's values (another thread may have written them).
   */
  allowedAfter(ticket: UpdateTicket): CustomerPatch[] | undefined {
    if (!this.seesAllUpdates) return undefined;
    const writes = this.customers.get(ticket.index)!;
    const alone = !ticket.overlapped && writes.inFlight === 0 && writes.versions.length === ticket.sentBefore;
    if (alone) return [customerPatch(this.seed, ticket.index, ticket.version)];
    return [0, ...writes.versions].map((v) => customerPatch(this.seed, ticket.index, v));
  }
}

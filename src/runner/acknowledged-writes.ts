/**
 * The failover check's memory of writes (`failovercheck=true`): for every field of every key a
 * run may write (a register), three 32-bit numbers in shared memory, so workers in several
 * worker threads keep one account, and nothing else: no value, no list of writes.
 *
 *   word    how many writes of the register are in flight (top 10 bits) and how many were ever
 *           sent (low 22 bits: write n's number, from which its value is regenerated);
 *   quiet   the number of the last write sent while no other write of the register was in
 *           flight: every write before it had returned when it was sent (bit 31 freezes it,
 *           bit 30 drops the register, see below);
 *   acked   1 + the floor of the latest acknowledged write: the quiet number when it was sent.
 *
 * After the run the store is read back (lost-writes.ts). A register whose latest acknowledged
 * write had floor F, and which holds write w < F, lost that acknowledged write: w had returned
 * before the acknowledged write was even sent, so any store that kept the acknowledged write
 * would show it or a later one. Writes that overlapped it (w >= F) may land in either order and
 * are not counted, so concurrency never makes a loss up. A write that failed may still have been
 * applied, at any later moment: from the first failed write of a register on, its quiet number
 * no longer moves (frozen), so a late-applied failed write is never taken for a loss (the
 * register's later writes are then checked against the writes before that failure only).
 * More than 4,194,303 writes of one register overflow its number: the register is dropped from
 * the check and counted as such.
 *
 * Twelve bytes per register (recordcount × fieldcount), and the check costs nothing when off:
 * no memory, and one untaken branch per write.
 */

const SEQ_BITS = 22;
const SEQ_MASK = (1 << SEQ_BITS) - 1;
const ONE_IN_FLIGHT = 1 << SEQ_BITS;
const FROZEN = 1 << 31;
const DROPPED = 1 << 30;
const QUIET_MASK = DROPPED - 1;
/** `packed = seq * PACK + floor`: an issued write's two numbers in one double (no allocation). */
const PACK = 2 ** SEQ_BITS;
/** Header cells: writes of keys beyond the tracked range, registers dropped. */
const HEADER = 2;
const UNTRACKED = 0;
const DROPPED_COUNT = 1;
/** Past this, the check would take more memory than a failover run should (12 bytes a register). */
export const MAX_REGISTERS = 64 * 1024 * 1024;

export interface AcknowledgedWritesLayout {
  buffer: SharedArrayBuffer;
  /** Keys 0 … keys-1 are tracked. */
  keys: number;
  fields: number;
}

export class AcknowledgedWrites {
  private readonly header: Int32Array;
  private readonly word: Int32Array;
  private readonly quiet: Int32Array;
  private readonly acked: Int32Array;
  readonly keys: number;
  readonly fields: number;

  constructor(readonly layout: AcknowledgedWritesLayout) {
    this.keys = layout.keys;
    this.fields = layout.fields;
    const registers = layout.keys * layout.fields;
    this.header = new Int32Array(layout.buffer, 0, HEADER);
    this.word = new Int32Array(layout.buffer, HEADER * 4, registers);
    this.quiet = new Int32Array(layout.buffer, (HEADER + registers) * 4, registers);
    this.acked = new Int32Array(layout.buffer, (HEADER + 2 * registers) * 4, registers);
  }

  /**
   * Memory for `keys` × `fields` registers; the keys `loaded.first` … `+ loaded.count - 1` start
   * with write 0 (the load's) acknowledged.
   */
  static create(keys: number, fields: number, loaded: { first: number; count: number }): AcknowledgedWrites {
    const registers = keys * fields;
    if (registers > MAX_REGISTERS) throw new RangeError(`${registers} registers`);
    const tracker = new AcknowledgedWrites({
      buffer: new SharedArrayBuffer((HEADER + 3 * registers) * 4),
      keys,
      fields,
    });
    tracker.acked.fill(1, loaded.first * fields, Math.min(keys, loaded.first + loaded.count) * fields);
    return tracker;
  }

  /** The register of a key's field, or -1 for a key beyond the tracked range (counted). */
  register(keyNumber: number, field: number): number {
    if (keyNumber < this.keys) return keyNumber * this.fields + field;
    Atomics.add(this.header, UNTRACKED, 1);
    return -1;
  }

  /** A write of register `r` is sent: `seq * PACK + floor` (see `seqOf`), or 0 for a dropped register. */
  issue(r: number): number {
    if ((Atomics.load(this.quiet, r) & DROPPED) !== 0) return 0;
    const before = Atomics.add(this.word, r, ONE_IN_FLIGHT + 1);
    const seq = (before & SEQ_MASK) + 1;
    if (seq > SEQ_MASK) {
      if ((Atomics.or(this.quiet, r, DROPPED) & DROPPED) === 0) Atomics.add(this.header, DROPPED_COUNT, 1);
      return 0;
    }
    const quiet = Atomics.load(this.quiet, r);
    if (before >>> SEQ_BITS === 0 && (quiet & FROZEN) === 0) {
      raiseQuiet(this.quiet, r, seq);
      return seq * PACK + seq;
    }
    return seq * PACK + (quiet & QUIET_MASK);
  }

  /** The write's number in `issue`'s answer (0: untracked, its value is the load's). */
  static seqOf(packed: number): number {
    return Math.floor(packed / PACK);
  }

  /** The write returned: acknowledged, or failed (and then perhaps applied later: the register freezes first). */
  settle(r: number, packed: number, acknowledged: boolean): void {
    if (packed === 0) return;
    if (acknowledged) raiseTo(this.acked, r, (packed % PACK) + 1);
    else Atomics.or(this.quiet, r, FROZEN);
    Atomics.sub(this.word, r, ONE_IN_FLIGHT);
  }

  /** 1 + the floor of the register's latest acknowledged write, or 0 when none was (or it is dropped). */
  ackedFloor(r: number): number {
    return (Atomics.load(this.quiet, r) & DROPPED) !== 0 ? 0 : Atomics.load(this.acked, r);
  }

  /** Writes of keys beyond the tracked range, not checked. */
  get untracked(): number {
    return Atomics.load(this.header, UNTRACKED);
  }

  /** Registers written more than 4,194,303 times, dropped from the check. */
  get dropped(): number {
    return Atomics.load(this.header, DROPPED_COUNT);
  }
}

/** `cells[r] = max(cells[r], value)`, by compare-and-swap. */
function raiseTo(cells: Int32Array, r: number, value: number): void {
  for (let old = Atomics.load(cells, r); old < value; old = Atomics.load(cells, r)) {
    if (Atomics.compareExchange(cells, r, old, value) === old) return;
  }
}

/** The quiet number raised to `seq`, its flags kept. */
function raiseQuiet(cells: Int32Array, r: number, seq: number): void {
  for (let old = Atomics.load(cells, r); (old & QUIET_MASK) < seq; old = Atomics.load(cells, r)) {
    if (Atomics.compareExchange(cells, r, old, (old & ~QUIET_MASK) | seq) === old) return;
  }
}

/**
 * One worker's writes of the operation in flight: the registers it sent and their numbers, kept
 * in arrays made once per worker, so a tracked write allocates nothing here.
 */
export class WorkerWrites {
  private readonly registers: Int32Array;
  private readonly packed: Float64Array;
  private count = 0;

  constructor(readonly tracker: AcknowledgedWrites) {
    this.registers = new Int32Array(tracker.fields);
    this.packed = new Float64Array(tracker.fields);
  }

  /** A new operation's writes begin. */
  begin(): void {
    this.count = 0;
  }

  /** Field `field` of key `keyNumber` is written: the write's number, which makes its value (0: the load's value, untracked). */
  add(keyNumber: number, field: number): number {
    const r = this.tracker.register(keyNumber, field);
    if (r < 0) return 0;
    const packed = this.tracker.issue(r);
    this.registers[this.count] = r;
    this.packed[this.count] = packed;
    this.count++;
    return AcknowledgedWrites.seqOf(packed);
  }

  /** The operation's writes returned: acknowledged (the store said OK) or not. */
  settle(acknowledged: boolean): void {
    for (let i = 0; i < this.count; i++) this.tracker.settle(this.registers[i]!, this.packed[i]!, acknowledged);
    this.count = 0;
  }
}

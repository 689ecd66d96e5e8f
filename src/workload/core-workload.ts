/**
 * YCSB's CoreWorkload: decides WHAT each operation does (which operation, which key, which
 * fields, what values), exactly as YCSB 0.17.0 does; the runner decides when, and times it.
 * One instance is shared by all workers of a process, like YCSB's workload object shared by its
 * client threads, so the key sequences and the acknowledged insert limit are global. With several
 * processes, each has its own instance (its own random stream) and the three counters are handed
 * in, living in shared memory (`runner/shared-counters.ts`): still one sequence of load keys, one
 * of insert keys and one acknowledged limit for the whole client, exactly as in YCSB.
 * Pure: no Node APIs (k6 scripts bundle it).
 */
import type { FieldMap } from '../stores/store.ts';
import { DrawsAhead, KeysAhead } from './draw-ahead.ts';
import { deterministicValue, fieldNames, randomValue } from './fields.ts';
import { AcknowledgedCounterGenerator, type AcknowledgedCounter } from './generators/acknowledged-counter.ts';
import { ConstantGenerator } from './generators/constant.ts';
import { CounterGenerator } from './generators/counter.ts';
import { DiscreteGenerator } from './generators/discrete.ts';
import { ExponentialGenerator } from './generators/exponential.ts';
import { HotspotGenerator } from './generators/hotspot.ts';
import type { NumberGenerator } from './generators/number-generator.ts';
import { ScrambledZipfianGenerator } from './generators/scrambled-zipfian.ts';
import { SequentialGenerator } from './generators/sequential.ts';
import { SkewedLatestGenerator } from './generators/skewed-latest.ts';
import { UniformGenerator } from './generators/uniform.ts';
import { ZipfianGenerator } from './generators/zipfian.ts';
import { buildKeyName } from './keys.ts';
import { versionedValue, writeOf } from './versioned-values.ts';
import type { WorkloadProperties } from './properties.ts';
import type { Random } from './random.ts';

export type OperationType = 'READ' | 'UPDATE' | 'INSERT' | 'SCAN' | 'READ-MODIFY-WRITE';

/** YCSB's counters shared by every worker of a client (see the class comment). */
export interface WorkloadCounters {
  /** Load keys, from insertstart. */
  loadKeys: CounterGenerator;
  /** Run-phase insert keys, from recordcount, with the acknowledged limit reads stay below. */
  transactionInserts: AcknowledgedCounter;
}

/** The counters of a client whose workers all share one CoreWorkload. */
export function localCounters(p: WorkloadProperties): WorkloadCounters {
  return {
    loadKeys: new CounterGenerator(p.insertstart),
    transactionInserts: new AcknowledgedCounterGenerator(p.recordcount),
  };
}

export class CoreWorkload {
  readonly table: string;
  readonly fieldNames: readonly string[];
  private readonly p: WorkloadProperties;
  private readonly random: Random;
  private readonly orderedInserts: boolean;
  private readonly keySequence: CounterGenerator;
  private readonly loadEnd: number;
  private readonly transactionInsertSequence: AcknowledgedCounter;
  private readonly operationChooser: DiscreteGenerator<OperationType>;
  private readonly keyChooser: NumberGenerator;
  private readonly keyChooserIsExponential: boolean;
  private readonly fieldChooser: UniformGenerator;
  private readonly fieldLength: NumberGenerator;
  private readonly scanLength: NumberGenerator;
  private readonly readAllFields: boolean;
  private readonly operationsAhead: DrawsAhead<OperationType>;
  /** The key chooser's draws made ahead (draw-ahead.ts); undefined for `latest`, drawn at each operation. */
  private readonly keysAhead: KeysAhead | undefined;
  /** The number of the key `nextTransactionKey` chose last (the failover check tracks writes by it). */
  lastKeyNumber = 0;

  constructor(properties: WorkloadProperties, random: Random, counters: WorkloadCounters = localCounters(properties)) {
    const p = properties;
    this.p = p;
    this.random = random;
    this.table = p.table;
    this.fieldNames = fieldNames(p.fieldnameprefix, p.fieldcount);
    this.orderedInserts = p.insertorder === 'ordered';
    this.readAllFields = p.readallfields;

    this.fieldLength =
      p.fieldlengthdistribution === 'constant'
        ? new ConstantGenerator(p.fieldlength)
        : p.fieldlengthdistribution === 'uniform'
          ? new UniformGenerator(random, p.minfieldlength, p.fieldlength)
          : new ZipfianGenerator(random, p.minfieldlength, p.fieldlength);

    this.keySequence = counters.loadKeys;
    this.loadEnd = p.insertstart + p.insertcount;
    this.operationChooser = new DiscreteGenerator<OperationType>(random, [
      ['READ', p.readproportion],
      ['UPDATE', p.updateproportion],
      ['INSERT', p.insertproportion],
      ['SCAN', p.scanproportion],
      ['READ-MODIFY-WRITE', p.readmodifywriteproportion],
    ]);
    this.transactionInsertSequence = counters.transactionInserts;

    const lower = p.insertstart;
    const upper = p.insertstart + p.insertcount - 1;
    switch (p.requestdistribution) {
      case 'uniform':
        this.keyChooser = new UniformGenerator(random, lower, upper);
        break;
      case 'sequential':
        this.keyChooser = new SequentialGenerator(lower, upper);
        break;
      case 'zipfian': {
        // YCSB sizes the key space for the inserts the run will make (with a fudge factor of 2),
        // so the zipfian's hot keys stay the same keys as the key space grows.
        const expectedNewKeys = Math.floor(p.operationcount * p.insertproportion * 2);
        this.keyChooser = new ScrambledZipfianGenerator(random, lower, p.insertstart + p.insertcount + expectedNewKeys);
        break;
      }
      case 'latest':
        this.keyChooser = new SkewedLatestGenerator(random, this.transactionInsertSequence);
        break;
      case 'hotspot':
        this.keyChooser = new HotspotGenerator(random, lower, upper, p.hotspotdatafraction, p.hotspotopnfraction);
        break;
      case 'exponential':
        this.keyChooser = new ExponentialGenerator(
          random,
          p['exponential.percentile'],
          p.recordcount * p['exponential.frac'],
        );
        break;
    }
    this.keyChooserIsExponential = p.requestdistribution === 'exponential';
    const chooser = this.operationChooser;
    this.operationsAhead = new DrawsAhead(() => chooser.nextValue());
    this.keysAhead =
      p.requestdistribution === 'latest'
        ? undefined
        : new KeysAhead(this.keyChooser, this.keyChooserIsExponential ? undefined : (n) => this.keyName(n));
    this.fieldChooser = new UniformGenerator(random, 0, p.fieldcount - 1);
    this.scanLength =
      p.scanlengthdistribution === 'uniform'
        ? new UniformGenerator(random, p.minscanlength, p.maxscanlength)
        : new ZipfianGenerator(random, p.minscanlength, p.maxscanlength);
  }

  // ---- load phase ----

  /** The next key to load (YCSB doInsert's keysequence, from insertstart). */
  nextLoadKey(): string {
    return this.keyName(this.keySequence.nextValue());
  }

  /**
   * Claim up to `count` consecutive load key numbers (a batch) from the load sequence shared by
   * every worker: returns the first and how many, or count 0 once insertcount keys are handed out.
   */
  claimLoadKeys(count: number): { first: number; count: number } {
    const first = this.keySequence.claim(count);
    return { first, count: Math.max(0, Math.min(count, this.loadEnd - first)) };
  }

  /** All fields of a record: deterministic values under dataintegrity, random ones otherwise. */
  buildValues(key: string): FieldMap {
    const values: FieldMap = {};
    for (const field of this.fieldNames) values[field] = this.value(key, field);
    return values;
  }

  // ---- run phase ----

  nextOperation(): OperationType {
    return this.operationsAhead.take();
  }

  /** A key for read/update/scan/read-modify-write (YCSB nextKeynum): never beyond the acknowledged inserts. */
  nextTransactionKey(): string {
    const keyNumber = this.nextKeyNumber();
    // Named in the batch it was drawn in, except where the number is not the raw draw.
    return this.keysAhead !== undefined && !this.keyChooserIsExponential
      ? this.keysAhead.lastName()
      : this.keyName(keyNumber);
  }

  nextKeyNumber(): number {
    const limit = this.transactionInsertSequence.lastValue();
    let keyNumber: number;
    if (this.keyChooserIsExponential) {
      do keyNumber = limit - this.drawKey();
      while (keyNumber < 0);
    } else {
      do keyNumber = this.drawKey();
      while (keyNumber > limit);
    }
    this.lastKeyNumber = keyNumber;
    return keyNumber;
  }

  private drawKey(): number {
    return this.keysAhead === undefined ? this.keyChooser.nextValue() : this.keysAhead.take();
  }

  /** A new key for a run-phase insert; call `acknowledgeInsert` when the insert is done (even if it failed). */
  nextInsertKey(): { key: string; keyNumber: number } {
    const keyNumber = this.transactionInsertSequence.nextValue();
    return { key: this.keyName(keyNumber), keyNumber };
  }

  acknowledgeInsert(keyNumber: number): void {
    this.transactionInsertSequence.acknowledge(keyNumber);
  }

  nextScanLength(): number {
    return this.scanLength.nextValue();
  }

  /** Fields to read: null (all) when readallfields, else one field chosen uniformly. */
  readFields(): readonly string[] | null {
    if (this.readAllFields) return null;
    // A fresh array: a store may still hold it after the call starts (client-side projection).
    return [this.fieldNames[this.fieldChooser.nextValue()]!];
  }

  /** Fields a scan asks for: none (keys only) under scankeysonly, else as a read's. */
  scanFields(): readonly string[] | null {
    return this.p.scankeysonly ? [] : this.readFields();
  }

  /** Values for an update: all fields when writeallfields, else one field chosen uniformly. */
  buildUpdate(key: string): FieldMap {
    if (this.p.writeallfields) return this.buildValues(key);
    const field = this.fieldNames[this.fieldChooser.nextValue()]!;
    return { [field]: this.value(key, field) };
  }

  /**
   * dataintegrity check: every returned field holds exactly the value YCSB's scheme gives it
   * (under the failover check, the value of some write of it: versioned-values.ts).
   */
  verify(key: string, fields: FieldMap): boolean {
    let count = 0;
    const size = this.p.fieldlength;
    for (const field in fields) {
      if (
        this.p.failovercheck
          ? writeOf(key, field, fields[field]!, size) < 0
          : fields[field] !== deterministicValue(key, field, size)
      )
        return false;
      count++;
    }
    return count > 0;
  }

  /**
   * The failover check's values of a write of key `keyNumber`: every field (an insert, or
   * writeallfields) or one chosen as `buildUpdate` chooses it, each the value of its next write,
   * registered with `writes` (runner/acknowledged-writes.ts).
   */
  buildTrackedValues(
    key: string,
    keyNumber: number,
    writes: { add(keyNumber: number, field: number): number },
    allFields: boolean,
  ): FieldMap {
    const values: FieldMap = {};
    const size = this.p.fieldlength;
    if (allFields || this.p.writeallfields) {
      for (let i = 0; i < this.fieldNames.length; i++)
        values[this.fieldNames[i]!] = versionedValue(key, this.fieldNames[i]!, writes.add(keyNumber, i), size);
    } else {
      const i = this.fieldChooser.nextValue();
      values[this.fieldNames[i]!] = versionedValue(key, this.fieldNames[i]!, writes.add(keyNumber, i), size);
    }
    return values;
  }

  keyName(keyNumber: number): string {
    return buildKeyName(this.keyOf(keyNumber), this.p.zeropadding, this.orderedInserts);
  }

  /**
   * The key a key number names. One client's insert numbers count on from recordcount; a part
   * of a sharded run counts the same way, its numbers spread over every stride-th key from its
   * offset, so no two parts insert one key and each part reads only the inserts it acknowledged.
   */
  private keyOf(keyNumber: number): number {
    const spread = this.p.insertKeys;
    const start = this.p.recordcount;
    return spread === undefined || keyNumber < start
      ? keyNumber
      : start + (keyNumber - start) * spread.stride + spread.offset;
  }

  private value(key: string, field: string): string {
    return this.p.dataintegrity
      ? deterministicValue(key, field, this.p.fieldlength)
      : randomValue(this.random, this.fieldLength.nextValue());
  }
}

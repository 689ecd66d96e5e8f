/**
 * A scenario file's documents, as a pure function of (seed, collection, index): document i of a
 * collection is the same on every store, in every process, at any time, so loads run in any
 * order, the oracle needs nothing but the file, and a document written by a run can be read
 * back and checked. Each document draws from its own sfc32 stream; faker draws from it too
 * (faker.ts points faker at the document's stream instead of re-seeding it).
 *
 * `_id` is `<collection>-<index, 9 digits>`: ids sort as they number, as strings, on every store.
 * Dates are ISO-8601 UTC strings with milliseconds (`2024-03-01T12:00:00.000Z`): JSON has no
 * date, CouchDB and Couchbase keep dates as such strings, and they compare and sort as the
 * instants do, so one comparison serves every store (Cassandra keeps them as `timestamp`).
 */
import { Random } from '../../src/workload/random.ts';
import { ZipfianGenerator } from '../../src/workload/generators/zipfian.ts';
import { callFaker, useStream } from './faker.ts';
import type { GeneratorSpec } from './schema.ts';

export type Scalar = string | number | boolean;
export type Value = Scalar | Value[] | Doc;
export interface Doc {
  [field: string]: Value;
}

/** A compiled generator: a value from the document's stream, or MISSING (the field is left out). */
type Generate = (r: Random) => Value | typeof MISSING;
export const MISSING = Symbol('missing');

/** Ids with 9 digits: as strings they sort as their numbers do, up to a billion documents. */
export function docId(collection: string, index: number): string {
  return `${collection}-${String(index).padStart(9, '0')}`;
}

/** The index an id was made from (-1 when it is not one of the collection's ids). */
export function indexOfId(collection: string, id: string): number {
  if (!id.startsWith(`${collection}-`)) return -1;
  const n = Number(id.slice(collection.length + 1));
  return Number.isInteger(n) ? n : -1;
}

/** A stream number per collection name (FNV-1a), so two collections never share streams. */
function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The stream of one document (`purpose` 0) or of one of its updates (purpose = the update's version). */
export function documentRandom(seed: number, collection: string, index: number, purpose = 0): Random {
  const h = hashName(collection);
  return new Random(seed * 4096 + (h & 0xfff) + purpose * 7919, (h ^ Math.imul(index, 0x9e3779b1)) >>> 0);
}

/** A Random that draws from whichever stream is current: generators made once (zipfian) follow each document's. */
class Switch {
  current = new Random(0);
  nextDouble = (): number => this.current.nextDouble();
  nextUint32 = (): number => this.current.nextUint32();
  nextInt = (bound: number): number => this.current.nextInt(bound);
}

/** A standard normal draw (Box–Muller). */
function gaussian(r: Random): number {
  const u = 1 - r.nextDouble();
  const v = r.nextDouble();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const clamp = (x: number, min: number, max: number) => Math.min(max, Math.max(min, x));

/** Largest range a zipfian field may span (its constant costs one pass over the range to compute). */
export const MAX_ZIPFIAN_RANGE = 10_000_000;

export class DocumentGenerator {
  private readonly switch = new Switch();
  private readonly fields: [string, Generate][];
  private readonly byPath = new Map<string, Generate>();

  constructor(
    readonly seed: number,
    readonly collection: string,
    fields: Readonly<Record<string, GeneratorSpec>>,
    /** How many documents each collection holds (refs point into them). */
    private readonly counts: ReadonlyMap<string, number>,
  ) {
    this.fields = Object.entries(fields).map(([name, spec]) => [name, this.compile(spec, name)]);
  }

  /** Document `index` of the collection. */
  generate(index: number): Doc {
    return this.draw(documentRandom(this.seed, this.collection, index), index);
  }

  /** New values for the given paths of document `index`, as its update number `version` sets them. */
  patch(index: number, version: number, paths: readonly string[]): Record<string, Value | undefined> {
    const r = documentRandom(this.seed, this.collection, index, version);
    const out: Record<string, Value | undefined> = {};
    for (const path of paths) {
      const value = this.withStream(r, this.byPath.get(path)!);
      out[path] = value === MISSING ? undefined : value;
    }
    return out;
  }

  /** The fields alone, drawn from `r` (a query's parameters, declared as generators). */
  drawFields(r: Random): Doc {
    const doc: Doc = {};
    for (const [name, generate] of this.fields) {
      const value = this.withStream(r, generate);
      if (value !== MISSING) doc[name] = value;
    }
    return doc;
  }

  private draw(r: Random, index: number): Doc {
    const doc: Doc = { _id: docId(this.collection, index) };
    for (const [name, generate] of this.fields) {
      const value = this.withStream(r, generate);
      if (value !== MISSING) doc[name] = value;
    }
    return doc;
  }

  private withStream(r: Random, generate: Generate): Value | typeof MISSING {
    const previous = this.switch.current;
    this.switch.current = r;
    useStream(r);
    try {
      return generate(r);
    } finally {
      this.switch.current = previous;
    }
  }

  private compile(spec: GeneratorSpec, path: string): Generate {
    const value = this.compileValue(spec, path);
    const present = spec.present ?? 1;
    const generate: Generate = present >= 1 ? value : (r) => (r.nextDouble() < present ? value(r) : MISSING);
    this.byPath.set(path, generate);
    return generate;
  }

  private zipfian(min: number, max: number): ZipfianGenerator {
    return new ZipfianGenerator(this.switch as unknown as Random, min, max);
  }

  private compileValue(spec: GeneratorSpec, path: string): Generate {
    switch (spec.type) {
      case 'faker':
        return () => callFaker(spec.method, spec.args);
      case 'int': {
        const { min, max } = spec;
        if (spec.distribution === 'zipfian') {
          const z = this.zipfian(min, max);
          return () => z.nextValue();
        }
        if (spec.distribution === 'normal') {
          const mean = spec.mean ?? (min + max) / 2;
          const sd = spec.stddev ?? (max - min) / 6;
          return (r) => clamp(Math.round(mean + sd * gaussian(r)), min, max);
        }
        return (r) => min + r.nextInt(max - min + 1);
      }
      case 'decimal': {
        const { min, max } = spec;
        const unit = 10 ** (spec.scale ?? 2);
        const round = (x: number) => Math.round(x * unit) / unit;
        if (spec.distribution === 'zipfian') {
          const z = this.zipfian(0, Math.round((max - min) * unit));
          return () => round(min + z.nextValue() / unit);
        }
        if (spec.distribution === 'normal') {
          const mean = spec.mean ?? (min + max) / 2;
          const sd = spec.stddev ?? (max - min) / 6;
          return (r) => round(clamp(mean + sd * gaussian(r), min, max));
        }
        return (r) => round(min + r.nextDouble() * (max - min));
      }
      case 'date': {
        const from = Date.parse(spec.from);
        const span = Date.parse(spec.to) - from;
        return (r) => new Date(from + Math.floor(r.nextDouble() * (span + 1))).toISOString();
      }
      case 'enum': {
        if (Array.isArray(spec.values)) {
          const values = spec.values;
          return (r) => values[r.nextInt(values.length)]!;
        }
        const entries = Object.entries(spec.values);
        const total = entries.reduce((sum, [, w]) => sum + w, 0);
        return (r) => {
          let x = r.nextDouble() * total;
          for (const [value, weight] of entries) if ((x -= weight) < 0) return value;
          return entries.at(-1)![0];
        };
      }
      case 'bool': {
        const p = spec.probability ?? 0.5;
        return (r) => r.nextDouble() < p;
      }
      case 'array': {
        const element = this.compileValue(spec.of, path);
        const { min, max } = spec;
        return (r) => {
          const n = min + r.nextInt(max - min + 1);
          const out: Value[] = [];
          for (let i = 0; i < n; i++) out.push(element(r) as Value);
          return out;
        };
      }
      case 'object': {
        const fields = Object.entries(spec.fields).map(
          ([name, s]) => [name, this.compile(s, `${path}.${name}`)] as const,
        );
        return (r) => {
          const doc: Doc = {};
          for (const [name, generate] of fields) {
            const value = generate(r);
            if (value !== MISSING) doc[name] = value;
          }
          return doc;
        };
      }
      case 'ref': {
        const target = spec.collection;
        const count = this.counts.get(target)!;
        if (spec.distribution === 'zipfian') {
          const z = this.zipfian(0, count - 1);
          return () => docId(target, z.nextValue());
        }
        return (r) => docId(target, r.nextInt(count));
      }
    }
  }
}

/** The value at a dotted path of a document: every value reached through arrays, flattened; [] when absent. */
export function valuesAt(doc: Value, path: readonly string[]): Value[] {
  if (path.length === 0) return Array.isArray(doc) ? doc.flatMap((v) => valuesAt(v, path)) : [doc];
  if (Array.isArray(doc)) return doc.flatMap((v) => valuesAt(v, path));
  if (doc === null || typeof doc !== 'object') return [];
  const next = (doc as Doc)[path[0]!];
  return next === undefined ? [] : valuesAt(next, path.slice(1));
}

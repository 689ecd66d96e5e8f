/**
 * The persons generator: `generatePerson(seed, index, shape)` is a pure function, so any
 * document can be regenerated at any time (by a loader writing batches in parallel, by the
 * oracle, by a test) and the same seed gives the same dataset on every store.
 *
 * Faithful to randPersons.py (appendix A.1): the kind of person is drawn uniformly from
 * {none, pet, fax, jedi power} first, then name (5–15 distinct letters a–z in random order),
 * salary (9000–40000) and age (18–90), both inclusive as Python's randint, and a telephone
 * number that is a random permutation of the ten digits (random.sample(DIGITS, 10)). The
 * optional value is one of PETS / a phone-style fax / one of JEDI_POWERS, or in the nested
 * shape an array of 1–5 such values drawn independently (so repeats happen, as in the thesis).
 *
 * Randomness: docbench's seeded sfc32 generator, one stream per document (seed, index), not
 * Python's Mersenne Twister run sequentially: the thesis's exact byte sequence could only be had
 * by generating all documents in order, and what matters for the benchmark is the distribution.
 * Not faker: the thesis's names are random letters, not realistic names, and faker's output
 * for a seed may change between its versions, which would silently change the dataset.
 * The nested document i draws the same kind, name, salary, age and telephone as the flat
 * document i (only the optional value differs), so Q1 and Q2 match the same ids in both shapes.
 */
import { Random } from '../../src/workload/random.ts';
import {
  EXTRAS,
  JEDI_POWERS,
  LIMITS,
  PETS,
  personId,
  type Extra,
  type FlatPerson,
  type NestedPerson,
  type Person,
  type PersonRecord,
  type Shape,
} from './model.ts';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';

/** Inclusive range, as Python's random.randint. */
function randint(random: Random, min: number, max: number): number {
  return min + random.nextInt(max - min + 1);
}

/** `count` distinct characters of `pool` in random order, as Python's random.sample (partial Fisher–Yates). */
function sample(random: Random, pool: string, count: number): string {
  const chars = pool.split('');
  for (let i = 0; i < count; i++) {
    const j = i + random.nextInt(chars.length - i);
    const t = chars[i]!;
    chars[i] = chars[j]!;
    chars[j] = t;
  }
  return chars.slice(0, count).join('');
}

function pick<T>(random: Random, values: readonly T[]): T {
  return values[random.nextInt(values.length)]!;
}

function phone(random: Random): string {
  return sample(random, DIGITS, LIMITS.phoneDigits);
}

/** One value, or in the nested shape an array of 1–5 independently drawn values. */
function optional<T>(random: Random, shape: Shape, draw: () => T): T | T[] {
  if (shape === 'flat') return draw();
  const n = randint(random, LIMITS.nested.min, LIMITS.nested.max);
  return Array.from({ length: n }, draw);
}

/** The kind of person at (seed, index): which optional value it has. */
export function extraOf(seed: number, index: number): Extra {
  return EXTRAS[new Random(seed, index).nextInt(EXTRAS.length)]!;
}

export function generatePerson(seed: number, index: number, shape: 'flat'): FlatPerson;
export function generatePerson(seed: number, index: number, shape: 'nested'): NestedPerson;
export function generatePerson(seed: number, index: number, shape: Shape): Person;
export function generatePerson(seed: number, index: number, shape: Shape): Person {
  if (!Number.isSafeInteger(index) || index < 0)
    throw new RangeError(`person index must be a whole number >= 0, got ${index}`);
  const random = new Random(seed, index);
  const extra = EXTRAS[random.nextInt(EXTRAS.length)]!;
  const person: Record<string, unknown> = {
    name: sample(random, ALPHABET, randint(random, LIMITS.nameLength.min, LIMITS.nameLength.max)),
    salary: randint(random, LIMITS.salary.min, LIMITS.salary.max),
    age: randint(random, LIMITS.age.min, LIMITS.age.max),
    telephone: phone(random),
  };
  if (extra === 'pet') person.pet = optional(random, shape, () => pick(random, PETS));
  else if (extra === 'fax') person.fax = optional(random, shape, () => phone(random));
  else if (extra === 'jedi power') person['jedi power'] = optional(random, shape, () => pick(random, JEDI_POWERS));
  return person as unknown as Person;
}

/** Documents [start, end) with their ids, ready for a bulk write. */
export function generateRecords(seed: number, shape: Shape, start: number, end: number): PersonRecord[] {
  const records: PersonRecord[] = [];
  for (let i = start; i < end; i++) records.push({ id: personId(i), person: generatePerson(seed, i, shape) });
  return records;
}

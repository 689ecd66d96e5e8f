/**
 * The persons dataset of Henricsson 2011, Robin Henricsson's BTH bachelor thesis "Document Oriented NoSQL
 * Databases" (section 6.1 and its randPersons.py, appendix A.1), which timed MongoDB against
 * CouchDB on it. Every person has a name, a salary, an age and a telephone number; then exactly
 * one of: nothing more, a pet, a fax number, or a Jedi power. In the nested variant the optional
 * value is an array of 1–5 values instead of one.
 *
 * Field names are the documents' own, including the thesis's `jedi power` with a space (its
 * benchmark queried `jedi_power` and so matched nothing). They are defined once here; query
 * definitions and every store dialect take them from `FIELD`, never retype them.
 */

export const FIELD = {
  name: 'name',
  salary: 'salary',
  age: 'age',
  telephone: 'telephone',
  pet: 'pet',
  fax: 'fax',
  jediPower: 'jedi power',
} as const;

/** randPersons.py's ANIMALS, spelt as in the code (the thesis's table says "slow lori"). */
export const PETS = ['Albatross', 'Horse', 'Piranha', 'Slow loris', 'Panda', 'Penguin'] as const;
/** randPersons.py's JEDI_POWERS. */
export const JEDI_POWERS = [
  'Force Lightning',
  'Jedi Mind Trick',
  'Force Choke',
  'Force Throw',
  'Force Insanity',
] as const;

export type Pet = (typeof PETS)[number];
export type JediPower = (typeof JEDI_POWERS)[number];

/** randPersons.py's constants. */
export const LIMITS = {
  /** Name: this many distinct letters a–z (random.sample of the alphabet). */
  nameLength: { min: 5, max: 15 },
  salary: { min: 9000, max: 40000 },
  age: { min: 18, max: 90 },
  /** Telephone and fax: random.sample of the ten digits, so all ten, each once, in random order. */
  phoneDigits: 10,
  /** Nested variant: an optional value becomes an array of this many values (repeats allowed). */
  nested: { min: 1, max: 5 },
} as const;

/** Which optional value a person has (randPersons.py's DEFAULT, WITH_PET, WITH_FAX, JEDI: drawn uniformly). */
export const EXTRAS = ['none', 'pet', 'fax', 'jedi power'] as const;
export type Extra = (typeof EXTRAS)[number];

/** `flat`: one value per optional field; `nested`: an array of 1–5 values. */
export type Shape = 'flat' | 'nested';
export const SHAPES: readonly Shape[] = ['flat', 'nested'];

interface PersonBase {
  name: string;
  salary: number;
  age: number;
  telephone: string;
}

/** A flat person: at most one of pet, fax, jedi power, each a single value. */
export interface FlatPerson extends PersonBase {
  pet?: Pet;
  fax?: string;
  'jedi power'?: JediPower;
}

/** A nested person: at most one of pet, fax, jedi power, each an array of 1–5 values. */
export interface NestedPerson extends PersonBase {
  pet?: Pet[];
  fax?: string[];
  'jedi power'?: JediPower[];
}

export type Person = FlatPerson | NestedPerson;

/** The optional fields, in the order of EXTRAS. */
export const OPTIONAL_FIELDS = [FIELD.pet, FIELD.fax, FIELD.jediPower] as const;
export type OptionalField = (typeof OPTIONAL_FIELDS)[number];

/** A person with the id it is stored under (the id is not a field of the document). */
export interface PersonRecord {
  id: string;
  person: Person;
}

const ID_PREFIX = 'person';

/** The id of the person at `index`: stable, so any store's answer can be mapped back to the generator. */
export function personId(index: number): string {
  return `${ID_PREFIX}${index}`;
}

/** The index a person id stands for, or undefined for an id docbench did not make. */
export function personIndex(id: string): number | undefined {
  if (!id.startsWith(ID_PREFIX)) return undefined;
  const n = Number(id.slice(ID_PREFIX.length));
  return Number.isSafeInteger(n) && n >= 0 && personId(n) === id ? n : undefined;
}

/** Name of the collection/table/database for a shape: flat and nested data never share one. */
export function collectionName(shape: Shape): string {
  return shape === 'flat' ? 'persons' : 'persons_nested';
}

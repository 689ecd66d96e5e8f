/**
 * Faker methods by name (`person.fullName`, `lorem.words` with args [3]), drawing from the
 * document's own sfc32 stream: re-seeding faker's Mersenne Twister costs far more than a
 * document's other fields (docs/harness-benchmarks.md), pointing it at a fresh stream nothing (as the e-commerce generator does). Faker is
 * synchronous, so the one module-level instance is never shared by two documents at once.
 *
 * A method's value must be a string, a number, a boolean or a Date (kept as an ISO string): the
 * type is found by calling the method once when the file is loaded, and a method that returns
 * anything else (an object, an array) is refused there, naming it.
 */
import { Faker, base, en, type Randomizer } from '@faker-js/faker';
import { Random } from '../../src/workload/random.ts';
import type { ScalarType } from './fields.ts';

class StreamRandomizer implements Randomizer {
  current = new Random(0);
  // Arrow properties: faker calls them detached from the object.
  next = (): number => this.current.nextDouble();
  seed = (seed: number | number[]): void => {
    const values = Array.isArray(seed) ? seed : [seed];
    this.current = new Random(values[0] ?? 0, values[1] ?? 0);
  };
}

const randomizer = new StreamRandomizer();
const faker = new Faker({ locale: [en, base], randomizer });

/** Let faker continue this stream. */
export function useStream(r: Random): void {
  randomizer.current = r;
}

type Method = (...args: unknown[]) => unknown;

/** The faker method `module.name`, or undefined when faker has none. */
function methodOf(name: string): Method | undefined {
  const [module, method] = name.split('.');
  const scope = (faker as unknown as Record<string, Record<string, unknown> | undefined>)[module!];
  const fn = scope?.[method!];
  return typeof fn === 'function' ? (fn.bind(scope) as Method) : undefined;
}

export class FakerMethodError extends Error {}

/** A value from the method (its Date as an ISO-8601 string). */
export function callFaker(name: string, args: readonly unknown[] | undefined): string | number | boolean {
  const value = methodOf(name)!(...(args ?? []));
  return value instanceof Date ? value.toISOString() : (value as string | number | boolean);
}

/** The type of what a method returns, by calling it once; throws FakerMethodError with the reason when it cannot be used. */
export function fakerType(name: string, args: readonly unknown[] | undefined): ScalarType {
  const method = methodOf(name);
  if (method === undefined) throw new FakerMethodError(`faker has no method ${name} (see https://fakerjs.dev/api/)`);
  let value: unknown;
  try {
    useStream(new Random(1));
    value = method(...(args ?? []));
  } catch (error) {
    throw new FakerMethodError(
      `faker ${name}(${(args ?? []).map((a) => JSON.stringify(a)).join(', ')}) failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  if (value instanceof Date) return 'date';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'decimal';
  throw new FakerMethodError(
    `faker ${name} returns ${Array.isArray(value) ? 'an array' : typeof value}, not a string, number, boolean or date: use array / object generators to build structure`,
  );
}

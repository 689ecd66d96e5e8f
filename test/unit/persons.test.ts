/**
 * The persons scenario without a server: the generator against the thesis's randPersons.py
 * (ranges, the one-of mix, nested array lengths, distinct letters, uniform choices), determinism
 * of (seed, index), the oracle on hand-checked documents, the query text every store dialect
 * generates, and the class of mistake the thesis made (querying `jedi_power`, looping over the
 * characters of a flat pet string) caught by the verification step.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { resultSchema, type StoreInfo } from '../../src/results/schema.ts';
import type { DiskSize, PersonsDialect, QueryVariant } from '../../scenarios/persons/dialect.ts';
import { PERSONS_DIALECTS } from '../../scenarios/persons/dialects.ts';
import { DEFAULT_SEED } from '../../scenarios/persons/defaults.ts';
import { extraOf, generatePerson, generateRecords } from '../../scenarios/persons/generator.ts';
import {
  EXTRAS,
  FIELD,
  JEDI_POWERS,
  LIMITS,
  personId,
  personIndex,
  PETS,
  type NestedPerson,
  type Person,
  type PersonRecord,
  type Shape,
} from '../../scenarios/persons/model.ts';
import {
  bodyChecksum,
  canonicalBody,
  expectedAnswers,
  expectedIds,
  vacuousQueries,
  type Expectation,
} from '../../scenarios/persons/oracle.ts';
import { matches, QUERIES, queryById, type PersonsQuery, type QueryId } from '../../scenarios/persons/queries.ts';
import { renderComparison, renderStoreTable } from '../../scenarios/persons/report.ts';
import { queryStatus, runQueries, type PersonsSettings, type StoreRun } from '../../scenarios/persons/run.ts';
import { selectStatements } from '../../scenarios/persons/stores/cassandra.ts';
import { collectionSizePath, gsiIndexes, latestValue, sqlppQuery } from '../../scenarios/persons/stores/couchbase.ts';
import { mangoSelector, mapFunction } from '../../scenarios/persons/stores/couchdb.ts';
import { mongoFilter } from '../../scenarios/persons/stores/mongodb.ts';
import { summarizeIds } from '../../scenarios/shared/checksum.ts';
import { ProgressBar } from '../../scenarios/shared/progress.ts';
import { ScenarioTimer, scenarioResult } from '../../scenarios/shared/timing.ts';
import { checkAnswer } from '../../scenarios/shared/verify.ts';
import { assertUserError, runDocbench } from '../support/cli.ts';

const N = 20_000;
const flat = Array.from({ length: N }, (_, i) => generatePerson(DEFAULT_SEED, i, 'flat'));
const nested = Array.from({ length: N }, (_, i) => generatePerson(DEFAULT_SEED, i, 'nested'));
const doc = (p: Person) => p as unknown as Record<string, unknown>;

/** Chi-square critical value at p = 0.001 (Wilson–Hilferty): a fair generator fails 1 time in 1000. */
function chiSquareCritical(df: number): number {
  const z = 3.0902;
  return df * (1 - 2 / (9 * df) + z * Math.sqrt(2 / (9 * df))) ** 3;
}

/** Assert that observed counts fit the expected proportions. */
function assertFits(
  label: string,
  observed: Map<string | number, number>,
  expected: Map<string | number, number>,
): void {
  const total = [...observed.values()].reduce((a, b) => a + b, 0);
  for (const key of observed.keys()) assert.ok(expected.has(key), `${label}: unexpected value ${String(key)}`);
  let chi = 0;
  for (const [key, p] of expected) {
    const e = p * total;
    const o = observed.get(key) ?? 0;
    chi += (o - e) ** 2 / e;
  }
  const critical = chiSquareCritical(expected.size - 1);
  assert.ok(
    chi < critical,
    `${label}: chi-square ${chi.toFixed(1)} >= ${critical.toFixed(1)} (df ${expected.size - 1}); counts ${JSON.stringify([...observed])}`,
  );
}

const uniform = (values: readonly (string | number)[]) => new Map(values.map((v) => [v, 1 / values.length]));
const range = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => min + i);
function tally<T extends string | number>(values: Iterable<T>): Map<T, number> {
  const m = new Map<T, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return m;
}
const kindOf = (p: Person): string =>
  p.pet !== undefined ? 'pet' : p.fax !== undefined ? 'fax' : p['jedi power'] !== undefined ? 'jedi power' : 'none';

describe('persons generator: faithful to randPersons.py', () => {
  it('every person has name, salary, age, telephone in the thesis ranges, and nothing else but at most one optional field', () => {
    for (const p of [...flat, ...nested]) {
      const keys = Object.keys(p);
      assert.deepEqual(keys.slice(0, 4), ['name', 'salary', 'age', 'telephone']);
      assert.ok(keys.length <= 5, `at most one optional field: ${JSON.stringify(p)}`);
      if (keys.length === 5)
        assert.ok([FIELD.pet, FIELD.fax, FIELD.jediPower].includes(keys[4] as never), `unknown field ${keys[4]}`);
      assert.ok(
        Number.isInteger(p.salary) && p.salary >= LIMITS.salary.min && p.salary <= LIMITS.salary.max,
        `salary ${p.salary}`,
      );
      assert.ok(Number.isInteger(p.age) && p.age >= LIMITS.age.min && p.age <= LIMITS.age.max, `age ${p.age}`);
    }
    assert.equal(LIMITS.salary.min, 9000);
    assert.equal(LIMITS.salary.max, 40000);
    assert.equal(LIMITS.age.min, 18);
    assert.equal(LIMITS.age.max, 90);
  });

  it('names are 5–15 distinct letters a–z, every length and letter equally likely', () => {
    const lengths = new Map<number, number>();
    const letters = new Map<string, number>();
    for (const p of flat) {
      assert.match(p.name, /^[a-z]{5,15}$/);
      assert.equal(new Set(p.name).size, p.name.length, `distinct letters: ${p.name}`);
      lengths.set(p.name.length, (lengths.get(p.name.length) ?? 0) + 1);
      for (const c of p.name) letters.set(c, (letters.get(c) ?? 0) + 1);
    }
    assertFits('name length', lengths, uniform(range(5, 15)));
    assertFits('name letters', letters, uniform('abcdefghijklmnopqrstuvwxyz'.split('')));
  });

  it('salary and age are uniform over their whole inclusive ranges', () => {
    assertFits('age', tally(flat.map((p) => p.age)), uniform(range(18, 90)));
    assert.ok(
      flat.some((p) => p.age === 18) && flat.some((p) => p.age === 90),
      'both age bounds occur (randint is inclusive)',
    );
    // 31 salary bands of equal width over the 31,001 values.
    const band = (s: number) => Math.floor(((s - 9000) * 31) / 31001);
    assertFits('salary bands', tally(flat.map((p) => band(p.salary))), uniform(range(0, 30)));
    const mean = flat.reduce((a, p) => a + p.salary, 0) / N;
    assert.ok(Math.abs(mean - 24500) < 250, `salary mean ${mean}`);
  });

  it('telephone and fax numbers are the ten digits, each once (random.sample(DIGITS, 10))', () => {
    const firstDigits = new Map<string, number>();
    for (const p of [...flat, ...nested]) {
      const numbers = [p.telephone, ...(p.fax === undefined ? [] : Array.isArray(p.fax) ? p.fax : [p.fax])];
      for (const n of numbers) {
        assert.equal(n.length, 10);
        assert.equal([...n].sort().join(''), '0123456789', `a permutation of the digits: ${n}`);
      }
      firstDigits.set(p.telephone[0]!, (firstDigits.get(p.telephone[0]!) ?? 0) + 1);
    }
    assertFits('telephone first digit', firstDigits, uniform('0123456789'.split('')));
  });

  it('exactly one of nothing / pet / fax / jedi power, each a quarter of the persons, independent of the neighbour', () => {
    assertFits('kinds', tally(flat.map(kindOf)), uniform(EXTRAS));
    assert.deepEqual(EXTRAS, ['none', 'pet', 'fax', 'jedi power']);
    for (let i = 0; i < 200; i++) assert.equal(extraOf(DEFAULT_SEED, i), kindOf(flat[i]!));
    // Consecutive indexes are independent streams: the pair of kinds is uniform over 16 cells.
    const pairs = tally(flat.slice(1).map((p, i) => `${kindOf(flat[i]!)}|${kindOf(p)}`));
    assertFits('kind pairs (i, i+1)', pairs, uniform(EXTRAS.flatMap((a) => EXTRAS.map((b) => `${a}|${b}`))));
  });

  it('pets and Jedi powers are the thesis lists, drawn uniformly; flat values are single strings', () => {
    assert.deepEqual(PETS, ['Albatross', 'Horse', 'Piranha', 'Slow loris', 'Panda', 'Penguin']);
    assert.deepEqual(JEDI_POWERS, [
      'Force Lightning',
      'Jedi Mind Trick',
      'Force Choke',
      'Force Throw',
      'Force Insanity',
    ]);
    const pets = flat.flatMap((p) => (p.pet === undefined ? [] : [p.pet]));
    const powers = flat.flatMap((p) => (p['jedi power'] === undefined ? [] : [p['jedi power']]));
    for (const v of [...pets, ...powers, ...flat.flatMap((p) => (p.fax === undefined ? [] : [p.fax]))])
      assert.equal(typeof v, 'string');
    assertFits('flat pets', tally(pets), uniform(PETS));
    assertFits('flat jedi powers', tally(powers), uniform(JEDI_POWERS));
  });

  it('nested: the optional value is an array of 1–5 independently drawn values (repeats happen)', () => {
    const lengths = new Map<number, number>();
    const elements = { pet: [] as string[], 'jedi power': [] as string[] };
    let repeats = 0;
    for (const p of nested as NestedPerson[]) {
      for (const field of [FIELD.pet, FIELD.fax, FIELD.jediPower] as const) {
        const value = p[field];
        if (value === undefined) continue;
        assert.ok(Array.isArray(value), `${field} is an array in the nested shape`);
        lengths.set(value.length, (lengths.get(value.length) ?? 0) + 1);
        if (new Set(value).size < value.length) repeats++;
        if (field !== FIELD.fax) elements[field].push(...(value as string[]));
      }
    }
    assertFits('nested array length', lengths, uniform(range(1, 5)));
    assertFits('nested pets', tally(elements.pet), uniform(PETS));
    assertFits('nested jedi powers', tally(elements['jedi power']), uniform(JEDI_POWERS));
    assert.ok(repeats > 100, `repeats within one array occur (${repeats})`);
  });

  it('flat and nested person i share kind, name, salary, age and telephone', () => {
    for (let i = 0; i < N; i++) {
      const f = flat[i]!;
      const n = nested[i]!;
      assert.equal(kindOf(f), kindOf(n));
      assert.deepEqual([f.name, f.salary, f.age, f.telephone], [n.name, n.salary, n.age, n.telephone]);
    }
  });
});

describe('persons generator: a pure function of (seed, index)', () => {
  it('gives the same document for the same (seed, index), in any order, alone or in a batch', () => {
    const batch = generateRecords(DEFAULT_SEED, 'nested', 1000, 1100);
    for (let i = 1099; i >= 1000; i--) {
      assert.deepEqual(generatePerson(DEFAULT_SEED, i, 'nested'), batch[i - 1000]!.person);
      assert.equal(batch[i - 1000]!.id, personId(i));
    }
    assert.deepEqual(generatePerson(DEFAULT_SEED, 5, 'flat'), flat[5]);
  });

  it('another seed gives other data', () => {
    const other = Array.from({ length: 100 }, (_, i) => generatePerson(42, i, 'flat'));
    const same = other.filter((p, i) => JSON.stringify(p) === JSON.stringify(flat[i])).length;
    assert.equal(same, 0);
  });

  it('is pinned for seed 1337: the dataset of a published result can be regenerated', () => {
    assert.deepEqual(generatePerson(1337, 0, 'flat'), {
      name: 'cbvdmyplkosh',
      salary: 20704,
      age: 78,
      telephone: '5796284310',
      fax: '2183946705',
    });
    assert.deepEqual(generatePerson(1337, 7, 'nested'), {
      name: 'vxgpz',
      salary: 15439,
      age: 40,
      telephone: '4160928735',
      pet: ['Slow loris', 'Horse', 'Piranha', 'Horse'],
    });
    const counts = (shape: Shape) =>
      [...expectedAnswers({ seed: 1337, size: 5000, shape })].map(([id, a]) => `${id}=${a.count}/${a.checksum}`);
    assert.deepEqual(counts('flat'), [
      'Q1=2616/6d1f1b8be13c8d17',
      'Q2=2337/be8ed1f794b25ada',
      'Q3=583/f9c4c52a70c0d1dd',
      'Q4=96/ba454d09262caa90',
      'Q5=238/7886843268d56985',
    ]);
    assert.deepEqual(counts('nested'), [
      'Q1=2616/6d1f1b8be13c8d17',
      'Q2=2337/be8ed1f794b25ada',
      'Q3=583/f9c4c52a70c0d1dd',
      'Q4=223/96c9948159b23fbf',
      'Q5=425/d82b766d9ef41918',
    ]);
  });

  it('rejects an index that is not a whole number >= 0; ids map back to indexes', () => {
    assert.throws(() => generatePerson(1, -1, 'flat'), RangeError);
    assert.throws(() => generatePerson(1, 1.5, 'flat'), RangeError);
    assert.equal(personIndex(personId(123)), 123);
    assert.equal(personIndex('person0123'), undefined);
    assert.equal(personIndex('user1'), undefined);
  });
});

describe('persons oracle', () => {
  const base = { name: 'abcde', telephone: '0123456789' };
  // Hand-checked: which of Q1–Q5 each document matches.
  const cases: Array<[string, Person, QueryId[]]> = [
    ['salary at the lower bound (exclusive)', { ...base, salary: 18500, age: 40 }, []],
    ['salary just inside', { ...base, salary: 18501, age: 40 }, ['Q1', 'Q2']],
    ['salary at the upper bound (exclusive)', { ...base, salary: 35000, age: 40 }, []],
    ['salary just inside the top', { ...base, salary: 34999, age: 26 }, ['Q1', 'Q2']],
    ['age 25 is not over 25', { ...base, salary: 20000, age: 25 }, ['Q1']],
    ['fax, flat', { ...base, salary: 20000, age: 30, fax: '9876543210' }, ['Q1', 'Q2', 'Q3']],
    ['fax, nested', { ...base, salary: 20000, age: 30, fax: ['9876543210'] }, ['Q1', 'Q2', 'Q3']],
    ['fax but too young', { ...base, salary: 20000, age: 20, fax: '9876543210' }, ['Q1']],
    ['penguin, flat', { ...base, salary: 20000, age: 30, pet: 'Penguin' }, ['Q1', 'Q2', 'Q4']],
    ['panda, flat', { ...base, salary: 20000, age: 30, pet: 'Panda' }, ['Q1', 'Q2']],
    [
      'a penguin among other pets',
      { ...base, salary: 20000, age: 30, pet: ['Horse', 'Penguin', 'Horse'] },
      ['Q1', 'Q2', 'Q4'],
    ],
    ['no penguin among the pets', { ...base, salary: 20000, age: 30, pet: ['Horse', 'Panda'] }, ['Q1', 'Q2']],
    ['force choke, flat', { ...base, salary: 20000, age: 30, 'jedi power': 'Force Choke' }, ['Q1', 'Q2', 'Q5']],
    [
      'force insanity among others',
      { ...base, salary: 20000, age: 30, 'jedi power': ['Force Throw', 'Force Insanity'] },
      ['Q1', 'Q2', 'Q5'],
    ],
    ['force lightning only', { ...base, salary: 20000, age: 30, 'jedi power': ['Force Lightning'] }, ['Q1', 'Q2']],
    ['penguin but salary too low', { ...base, salary: 9000, age: 90, pet: 'Penguin' }, []],
  ] as never;

  it('matches hand-checked documents exactly, bounds exclusive as in the thesis code', () => {
    for (const [label, person, want] of cases) {
      assert.deepEqual(
        QUERIES.filter((q) => matches(q, person)).map((q) => q.id),
        want,
        label,
      );
    }
  });

  it('expectedAnswers agrees with an independent predicate over a generated dataset, flat and nested', () => {
    // Written out by hand from section 6.3, not with the scenario's conditions.
    const anyOf = (v: unknown, wanted: string[]) =>
      Array.isArray(v) ? v.some((x) => wanted.includes(x as string)) : wanted.includes(v as string);
    const q2 = (d: Record<string, unknown>) =>
      (d.salary as number) > 18500 && (d.salary as number) < 35000 && (d.age as number) > 25;
    const predicates: Record<QueryId, (d: Record<string, unknown>) => boolean> = {
      Q1: (d) => (d.salary as number) > 18500 && (d.salary as number) < 35000,
      Q2: q2,
      Q3: (d) => q2(d) && 'fax' in d,
      Q4: (d) => q2(d) && anyOf(d.pet, ['Penguin']),
      Q5: (d) => q2(d) && anyOf(d['jedi power'], ['Force Choke', 'Force Insanity']),
    };
    for (const shape of ['flat', 'nested'] as const) {
      const size = 3000;
      const expected = expectedAnswers({ seed: 99, size, shape });
      for (const q of QUERIES) {
        const ids = Array.from({ length: size }, (_, i) => i)
          .filter((i) => predicates[q.id](doc(generatePerson(99, i, shape))))
          .map(personId);
        const { count, checksum } = expected.get(q.id)!;
        assert.deepEqual({ count, checksum }, summarizeIds(ids), `${shape} ${q.id}`);
        const bodies = ids.map((id) => ({ id, person: generatePerson(99, personIndex(id)!, shape) }));
        assert.equal(
          expected.get(q.id)!.bodies,
          bodyChecksum(bodies.reverse()),
          `${shape} ${q.id}: the body checksum, in any order`,
        );
        assert.deepEqual([...expectedIds({ seed: 99, size, shape }, q)], ids);
      }
      assert.deepEqual(vacuousQueries(expected), [], 'no query is vacuous at 3000 documents');
    }
    const tiny = new Map<QueryId, Expectation>([
      ['Q1', { ...summarizeIds(['person1']), bodies: '' }],
      ['Q4', { ...summarizeIds([]), bodies: '' }],
    ]);
    assert.deepEqual(vacuousQueries(tiny), ['Q4']);
  });

  it('queries take their field names from the model: the documents hold "jedi power", with a space', () => {
    assert.equal(FIELD.jediPower, 'jedi power');
    assert.ok(nested.some((p) => 'jedi power' in p) && !nested.some((p) => 'jedi_power' in p));
    assert.equal(queryById('Q5').where[2]!.field, 'jedi power');
  });
});

// --- the thesis's mistakes, and the verification step that makes them impossible to miss ----

/** The thesis's couchBench.py map functions for Q4 and Q5 (appendix A.5), in JavaScript. */
const THESIS_MAP = {
  Q4: (d: Record<string, unknown>) => {
    if (!((d.salary as number) > 18500 && (d.salary as number) < 35000 && (d.age as number) > 25 && d.pet))
      return false;
    const pet = d.pet as string | string[];
    let found = false;
    for (let i = 0; i < pet.length; i++) if (pet[i] === 'Penguin') found = true; // a flat pet: its characters
    return found;
  },
  Q5: (d: Record<string, unknown>) => {
    if (!((d.salary as number) > 18500 && (d.salary as number) < 35000 && (d.age as number) > 25 && d.jedi_power))
      return false;
    const powers = d.jedi_power as string[];
    return powers.some((p) => p === 'Force Choke' || p === 'Force Insanity');
  },
};

/** What a dialect does to a document on its way back (a store that loses or retypes a field). */
type Alter = (record: PersonRecord, query: PersonsQuery) => PersonRecord;

/** A dialect over an in-memory dataset; `answer` decides which ids each query returns, `alter` what their documents look like. */
class MemoryDialect implements PersonsDialect {
  readonly variants: readonly QueryVariant[] = [{ name: 'memory', description: 'in-memory filter' }];
  records: PersonRecord[] = [];
  constructor(
    private readonly answer: (query: PersonsQuery, records: PersonRecord[]) => string[],
    private readonly alter: Alter = (r) => r,
  ) {}
  async drop() {}
  async prepare() {}
  async insertMany(records: readonly PersonRecord[]) {
    this.records.push(...records);
  }
  async insertOne(record: PersonRecord) {
    this.records.push(record);
  }
  async query(_variant: string, query: PersonsQuery) {
    const byId = new Map(this.records.map((r) => [r.id, r]));
    return this.answer(query, this.records).map((id) =>
      this.alter(byId.get(id) ?? { id, person: {} as Person }, query),
    );
  }
  async sizeOnDisk(): Promise<DiskSize> {
    return { method: 'unavailable: in memory' };
  }
}

const SETTINGS = (shape: Shape): PersonsSettings => ({
  seed: DEFAULT_SEED,
  size: 2000,
  shape,
  indexes: false,
  batchSize: 500,
  concurrency: 1,
  repeat: 2,
});
const STORE_INFO: StoreInfo = {
  name: 'memory',
  url: 'memory://',
  server: 'none',
  serverVersion: '0',
  driver: 'none',
  localTarget: false,
};

async function verifyRun(
  shape: Shape,
  answer: (query: PersonsQuery, records: PersonRecord[]) => string[],
  alter?: Alter,
) {
  const settings = SETTINGS(shape);
  const dialect = new MemoryDialect(answer, alter);
  await dialect.insertMany(generateRecords(settings.seed, shape, 0, settings.size));
  const timer = new ScenarioTimer();
  const expectations = expectedAnswers(settings);
  const failures = await runQueries(dialect, 'memory', settings, expectations, timer);
  const run = scenarioResult(timer.outcome('run'), {
    scenario: 'persons',
    workloadName: 'test',
    properties: {
      variants: 'memory',
      size: settings.size,
      shape,
      seed: settings.seed,
      indexes: false,
      repeat: settings.repeat,
    },
    store: STORE_INFO,
  });
  return { failures, run: resultSchema.parse(run) };
}

const right = (query: PersonsQuery, records: PersonRecord[]) =>
  records.filter((r) => matches(query, r.person)).map((r) => r.id);
/** What the thesis's code returned: its own Q4 and Q5, the right Q1–Q3. */
const thesis = (query: PersonsQuery, records: PersonRecord[]) =>
  query.id === 'Q4' || query.id === 'Q5'
    ? records.filter((r) => THESIS_MAP[query.id as 'Q4' | 'Q5'](doc(r.person))).map((r) => r.id)
    : right(query, records);

describe('verification against the oracle', () => {
  it('a dialect that answers right passes every query, every repeat', async () => {
    for (const shape of ['flat', 'nested'] as const) {
      const { failures, run } = await verifyRun(shape, right);
      assert.deepEqual(failures, []);
      for (const q of QUERIES) {
        assert.equal(queryStatus(run, 'memory', q.id), 'verified', `${shape} ${q.id}`);
        assert.equal(run.operations.find((o) => o.name === `memory:${q.id}-VERIFY`)?.returns?.OK, 2);
      }
    }
  });

  it("the thesis's Q5 (jedi_power) and its CouchDB Q4 on flat data (a loop over the characters of 'Penguin') fail loudly", async () => {
    const { failures, run } = await verifyRun('flat', thesis);
    assert.equal(failures.length, 2, failures.join('\n'));
    assert.match(
      failures[0]!,
      /^memory \[memory\] Q4 returned 0 ids \(checksum 0{16}\); the oracle expects \d+ \(checksum [0-9a-f]{16}\): \d+ missing, e\.g\. person\d+/,
    );
    assert.match(failures[1]!, /^memory \[memory\] Q5 returned 0 ids/);
    assert.equal(queryStatus(run, 'memory', 'Q4'), 'WRONG');
    assert.equal(queryStatus(run, 'memory', 'Q5'), 'WRONG');
    assert.equal(queryStatus(run, 'memory', 'Q1'), 'verified');
    // Nested: the thesis's Q4 loop works on arrays, its Q5 still matches nothing.
    const nestedRun = await verifyRun('nested', thesis);
    assert.deepEqual(
      nestedRun.failures.map((f) => f.split(' ')[2]),
      ['Q5'],
    );
  });

  it('an answer with one id missing, one too many, or one twice fails, naming the ids', async () => {
    const oneMissing = await verifyRun('flat', (q, r) => right(q, r).slice(1));
    assert.equal(oneMissing.failures.length, 5);
    assert.match(oneMissing.failures[0]!, /1 missing, e\.g\. person\d+/);
    const extra = await verifyRun('flat', (q, r) => (q.id === 'Q3' ? [...right(q, r), 'person1999999'] : right(q, r)));
    assert.deepEqual(extra.failures.length, 1);
    assert.match(extra.failures[0]!, /Q3 .*1 unexpected, e\.g\. person1999999/);
    const twice = await verifyRun('flat', (q, r) => (q.id === 'Q2' ? [...right(q, r), right(q, r)[0]!] : right(q, r)));
    assert.match(twice.failures[0]!, /Q2 .*returned more than once: person\d+/);
  });

  it('the right ids with a document altered on the way back (a field lost, a number as a string, an array grown) fail, naming the document', async () => {
    const first = new Map<string, string>();
    const once =
      (change: (person: Record<string, unknown>) => void): Alter =>
      (r, q) => {
        if ((first.get(q.id) ?? (first.set(q.id, r.id), r.id)) !== r.id) return r;
        const person = structuredClone(r.person) as unknown as Record<string, unknown>;
        change(person);
        return { id: r.id, person: person as unknown as Person };
      };
    const lost = await verifyRun(
      'flat',
      right,
      once((p) => delete p.telephone),
    );
    assert.equal(lost.failures.length, 5, lost.failures.join('\n'));
    assert.match(
      lost.failures[0]!,
      /^memory \[memory\] Q1: the right \d+ ids, but document person\d+ differs: expected \{"age":\d+,.*"telephone":"\d+"\}, got \{"age":\d+,.*"salary":\d+\}$/,
    );
    assert.equal(queryStatus(lost.run, 'memory', 'Q1'), 'WRONG');
    first.clear();
    const text = await verifyRun(
      'flat',
      right,
      once((p) => (p.salary = String(p.salary))),
    );
    assert.match(text.failures[0]!, /"salary":"\d+"/);
    first.clear();
    const longer = once((p) => (p.pet = [...(p.pet as string[]), 'Horse', 'Horse', 'Horse', 'Horse', 'Horse']));
    const cut = await verifyRun('nested', right, (r, q) => (q.id === 'Q4' ? longer(r, q) : r));
    assert.deepEqual(
      cut.failures.map((f) => f.split(' ')[2]),
      ['Q4:'],
    );
    // Key order is the store's business: the same fields in another order are the same document.
    assert.equal(
      canonicalBody('person1', { age: 30, name: 'ab', salary: 10000, telephone: '0' }),
      canonicalBody('person1', { telephone: '0', salary: 10000, name: 'ab', age: 30 }),
    );
  });

  it('checkAnswer is order-independent', () => {
    const ids = ['person1', 'person2', 'person3'];
    const expected = summarizeIds(ids);
    assert.equal(
      checkAnswer({ store: 's', query: 'Q1', variant: 'v' }, expected, [...ids].reverse(), () => ids).ok,
      true,
    );
    assert.equal(
      checkAnswer({ store: 's', query: 'Q1', variant: 'v' }, expected, ['person1', 'person2'], () => ids).ok,
      false,
    );
  });
});

// --- what each store dialect sends, generated from the query definitions ----------------------

/** Run a generated CouchDB map function on documents, returning the emitted ids. */
function runMap(source: string, records: PersonRecord[]): string[] {
  const ids: string[] = [];
  const map = new Function('emit', `return (${source});`)((id: string) => ids.push(id)) as (d: unknown) => void;
  for (const r of records) map({ _id: r.id, ...r.person });
  return ids;
}

describe('store dialects: query text', () => {
  const records = (shape: Shape) => generateRecords(DEFAULT_SEED, shape, 0, 3000);

  it('CouchDB map functions emit exactly the oracle ids; a flat map on nested data (or the reverse) is caught', () => {
    for (const shape of ['flat', 'nested'] as const) {
      const data = records(shape);
      const expected = expectedAnswers({ seed: DEFAULT_SEED, size: 3000, shape });
      for (const q of QUERIES) {
        const subject = { store: 'couchdb', query: q.id, variant: 'view' };
        assert.ok(
          checkAnswer(subject, expected.get(q.id)!, runMap(mapFunction(q, shape === 'nested'), data), () => []).ok,
          `${shape} ${q.id}`,
        );
      }
      // The wrong shape's map function: pet and jedi power never match.
      for (const id of ['Q4', 'Q5'] as const) {
        const wrong = runMap(mapFunction(queryById(id), shape !== 'nested'), data);
        assert.equal(
          checkAnswer({ store: 'couchdb', query: id, variant: 'view' }, expected.get(id)!, wrong, () => []).ok,
          false,
          `${shape} ${id} with the other shape's map`,
        );
      }
    }
  });

  it('CouchDB Mango selectors: ranges merged per field, $elemMatch for arrays', () => {
    assert.deepEqual(mangoSelector(queryById('Q4'), false), {
      salary: { $gt: 18500, $lt: 35000 },
      age: { $gt: 25 },
      pet: { $eq: 'Penguin' },
    });
    assert.deepEqual(mangoSelector(queryById('Q5'), true), {
      salary: { $gt: 18500, $lt: 35000 },
      age: { $gt: 25 },
      'jedi power': { $elemMatch: { $in: ['Force Choke', 'Force Insanity'] } },
    });
    assert.deepEqual(mangoSelector(queryById('Q3'), true), {
      salary: { $gt: 18500, $lt: 35000 },
      age: { $gt: 25 },
      fax: { $exists: true },
    });
  });

  it('MongoDB filters: the same for both shapes (MongoDB matches array elements itself)', () => {
    assert.deepEqual(mongoFilter(queryById('Q1')), { salary: { $gt: 18500, $lt: 35000 } });
    assert.deepEqual(mongoFilter(queryById('Q3')), {
      salary: { $gt: 18500, $lt: 35000 },
      age: { $gt: 25 },
      fax: { $exists: true },
    });
    assert.deepEqual(mongoFilter(queryById('Q4')), {
      salary: { $gt: 18500, $lt: 35000 },
      age: { $gt: 25 },
      pet: 'Penguin',
    });
    assert.deepEqual(mongoFilter(queryById('Q5')), {
      salary: { $gt: 18500, $lt: 35000 },
      age: { $gt: 25 },
      'jedi power': { $in: ['Force Choke', 'Force Insanity'] },
    });
  });

  it('Cassandra CQL: sanitized column names, has_fax, CONTAINS on lists, one SELECT per value where CQL has no OR', () => {
    const table = '"docbench"."persons"';
    assert.deepEqual(selectStatements(table, queryById('Q3'), false, true), [
      {
        cql: `SELECT * FROM ${table} WHERE "salary" > ? AND "salary" < ? AND "age" > ? AND "has_fax" = ? ALLOW FILTERING`,
        params: [18500, 35000, 25, true],
      },
    ]);
    assert.deepEqual(selectStatements(table, queryById('Q5'), false, true), [
      {
        cql: `SELECT * FROM ${table} WHERE "salary" > ? AND "salary" < ? AND "age" > ? AND "jedi_power" IN (?, ?) ALLOW FILTERING`,
        params: [18500, 35000, 25, 'Force Choke', 'Force Insanity'],
      },
    ]);
    assert.deepEqual(
      selectStatements(table, queryById('Q5'), true, false).map((s) => s.params.at(-1)),
      ['Force Choke', 'Force Insanity'],
    );
    assert.match(selectStatements(table, queryById('Q4'), true, false)[0]!.cql, /"pet" CONTAINS \?$/);
  });

  it('Couchbase SQL++: backtick-quoted fields, positional parameters, ANY … SATISFIES for arrays', () => {
    const ks = '`docbench`.`_default`.`persons`';
    const select = `SELECT META(d).id AS id, d AS doc FROM ${ks} AS d WHERE d.\`salary\` > $1 AND d.\`salary\` < $2`;
    assert.deepEqual(sqlppQuery(ks, queryById('Q1'), false), { statement: select, parameters: [18500, 35000] });
    assert.deepEqual(sqlppQuery(ks, queryById('Q3'), true), {
      statement: `${select} AND d.\`age\` > $3 AND d.\`fax\` IS NOT MISSING`,
      parameters: [18500, 35000, 25],
    });
    assert.deepEqual(sqlppQuery(ks, queryById('Q4'), false), {
      statement: `${select} AND d.\`age\` > $3 AND d.\`pet\` = $4`,
      parameters: [18500, 35000, 25, 'Penguin'],
    });
    assert.deepEqual(sqlppQuery(ks, queryById('Q5'), false), {
      statement: `${select} AND d.\`age\` > $3 AND d.\`jedi power\` IN [$4, $5]`,
      parameters: [18500, 35000, 25, 'Force Choke', 'Force Insanity'],
    });
    assert.deepEqual(sqlppQuery(ks, queryById('Q5'), true), {
      statement: `${select} AND d.\`age\` > $3 AND ANY v IN d.\`jedi power\` SATISFIES v IN [$4, $5] END`,
      parameters: [18500, 35000, 25, 'Force Choke', 'Force Insanity'],
    });
    assert.doesNotMatch(JSON.stringify(QUERIES.map((q) => sqlppQuery(ks, q, true).statement)), /jedi_power/);
  });

  it('Couchbase GSI: one deferred index per queried field, array indexes for nested values, with the same variable as the queries', () => {
    const ks = '`b`.`s`.`persons_nested`';
    const statements = gsiIndexes(ks, 'persons_nested', true).map((i) => i.statement);
    assert.deepEqual(statements, [
      `CREATE INDEX \`persons_nested_salary_age\` IF NOT EXISTS ON ${ks}(\`salary\`, \`age\`) WITH {"defer_build": true}`,
      `CREATE INDEX \`persons_nested_salary_age_has_fax\` IF NOT EXISTS ON ${ks}(\`salary\`, \`age\`) WHERE \`fax\` IS NOT MISSING WITH {"defer_build": true}`,
      `CREATE INDEX \`persons_nested_pet_salary_age\` IF NOT EXISTS ON ${ks}(DISTINCT ARRAY v FOR v IN \`pet\` END, \`salary\`, \`age\`) WITH {"defer_build": true}`,
      `CREATE INDEX \`persons_nested_jedi_power_salary_age\` IF NOT EXISTS ON ${ks}(DISTINCT ARRAY v FOR v IN \`jedi power\` END, \`salary\`, \`age\`) WITH {"defer_build": true}`,
    ]);
    assert.match(
      gsiIndexes(ks, 'persons', false)[2]!.statement,
      /ON `b`.`s`.`persons_nested`\(`pet`, `salary`, `age`\)/,
    );
  });

  it('Couchbase size: the per-collection statistic, and its newest sample read from a stats answer', () => {
    assert.equal(
      collectionSizePath('docbench', '_default', 'persons'),
      '/pools/default/stats/range/kv_collection_data_size_bytes?bucket=docbench&scope=_default&collection=persons&nodesAggregation=sum&start=-30&step=10',
    );
    assert.equal(
      latestValue({
        data: [
          {
            metric: {},
            values: [
              [1, '100'],
              [2, '2048'],
            ],
          },
        ],
        errors: [],
      }),
      2048,
    );
    assert.equal(latestValue({ data: [] }), undefined);
    assert.equal(latestValue(null), undefined);
  });
});

describe('persons report', () => {
  it('shows a size a store could not measure as n/a, never as 0, and a wrong answer as WRONG', async () => {
    const { run } = await verifyRun('flat', thesis);
    const load = resultSchema.parse(
      scenarioResult(new ScenarioTimer().outcome('load'), {
        scenario: 'persons',
        workloadName: 't',
        properties: run.workload.properties,
        store: STORE_INFO,
      }),
    );
    const storeRun: StoreRun = { store: 'memory', settings: SETTINGS('flat'), load, run, failures: [] };
    const table = renderStoreTable(storeRun);
    assert.match(table, /\| size on disk +\| +\| n\/a \(see notes\) \|/);
    assert.match(table, /\| Q4 +\| memory .*WRONG ✗/);
    const comparison = renderComparison([storeRun]);
    assert.match(comparison, /\| 2,000 \| flat +\| no +\| memory +\| memory +\| .*\| +n\/a \|/);
    assert.match(comparison, /3\/5 \(WRONG ✗\)/);
    assert.doesNotMatch(table, /MiB/);
  });
});

describe('progress bar', () => {
  it('prints plain lines with rate and ETA when not on a terminal', () => {
    let now = 0;
    const lines: string[] = [];
    const bar = new ProgressBar({
      label: '[seed]',
      total: 1000,
      unit: 'docs',
      write: (t) => lines.push(t),
      isTTY: false,
      lineIntervalSeconds: 1,
      now: () => now,
    });
    now = 500;
    bar.advance(250);
    now = 1000;
    bar.advance(250);
    bar.finish();
    assert.equal(lines.length, 2);
    assert.equal(lines[0], '[seed] [############------------]  50% 500/1,000 docs, 500 docs/s, ETA 1 s\n');
    assert.doesNotMatch(lines.join(''), /\r|\x1b/);
  });
});

describe('persons CLI: bad input', () => {
  const work = mkdtempSync(join(tmpdir(), 'docbench-persons-'));
  after(() => rmSync(work, { recursive: true, force: true }));
  const cases: Array<[string[], RegExp]> = [
    [
      ['persons', '--stores', 'redis,nosql9000'],
      new RegExp(
        `^docbench: --stores: the persons scenario runs on ${PERSONS_DIALECTS.stores.join(', ')}; got "nosql9000"$`,
      ),
    ],
    [
      ['persons', '--store', 'redis', '--size', '0'],
      /^docbench: error: option '--size <list>' argument '0' is invalid\. --size expects document counts/,
    ],
    [['persons', '--store', 'redis', '--size', 'lots'], /argument 'lots' is invalid/],
    [
      ['seed', 'persons', '--store', 'redis', '--size', '-3'],
      /^docbench: error: option '--size <n>' argument '-3' is invalid\. --size expects a whole number >= 1/,
    ],
    [['seed', 'persons', '--store', 'basic'], /^docbench: --store: the persons scenario runs on/],
    [['persons'], /^docbench: --store \(or --stores\) is required/],
    [['persons', '--stores', 'redis,mongodb', '--url', 'redis://127.0.0.1:1'], /^docbench: --url names one server/],
    [
      ['persons', '--store', 'redis', '--docker', '--url', 'redis://127.0.0.1:1'],
      /^docbench: give --url or --docker, not both$/,
    ],
    [
      ['persons', '--store', 'redis', '--insert-mode', 'batch'],
      /^docbench: error: option '--insert-mode <mode>' argument 'batch' is invalid\. Allowed choices are single, bulk\.$/,
    ],
  ];
  for (const [args, pattern] of cases) {
    it(args.join(' '), () => assertUserError(runDocbench(args, { cwd: work }), pattern));
  }
});

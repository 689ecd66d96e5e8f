/**
 * A query's parameters, drawn from the generated data so that queries find something: a `pick`
 * takes the field's value in a random existing document (one element of an array), a generator
 * draws as a field would. Set k of a query is a pure function of (seed, query, k), so every
 * process, the service and the oracle draw the same sets.
 */
import { Random } from '../../src/workload/random.ts';
import { DocumentGenerator, valuesAt, type Doc, type Value } from './generator.ts';
import type { Query, Scenario } from './model.ts';
import type { GeneratorSpec } from './schema.ts';

/** Draws before a pick gives up on a field few documents have. */
const PICK_TRIES = 200;

export class ParameterDrawer {
  private readonly generators = new Map<string, DocumentGenerator>();

  constructor(
    private readonly scenario: Scenario,
    /** Every collection's documents (the oracle's). */
    private readonly docs: ReadonlyMap<string, readonly Doc[]>,
  ) {
    const counts = new Map([...scenario.collections].map(([n, c]) => [n, c.count]));
    for (const query of scenario.queries.values()) {
      const generated = Object.fromEntries([...query.params].filter(([, p]) => p.type !== 'pick')) as Record<
        string,
        GeneratorSpec
      >;
      this.generators.set(query.name, new DocumentGenerator(scenario.seed, `params:${query.name}`, generated, counts));
    }
  }

  /** Parameter set k of a query. */
  draw(query: Query, k: number): Record<string, Value> {
    const r = new Random(this.scenario.seed * 31 + hash(query.name), k);
    const out: Record<string, Value> = this.generators.get(query.name)!.drawFields(r);
    for (const [name, p] of query.params) {
      if (p.type !== 'pick') continue;
      const dot = p.from.indexOf('.');
      const docs = this.docs.get(p.from.slice(0, dot))!;
      const path = p.from.slice(dot + 1).split('.');
      const one = (): Value => {
        for (let i = 0; i < PICK_TRIES; i++) {
          const values = valuesAt(docs[r.nextInt(docs.length)]!, path);
          if (values.length > 0) return values[r.nextInt(values.length)]!;
        }
        throw new Error(`parameter ${name} of ${query.name}: no value of ${p.from} in ${PICK_TRIES} documents drawn`);
      };
      out[name] = p.count === undefined ? one() : Array.from({ length: p.count }, one);
    }
    return out;
  }
}

function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * What each field of a collection holds, derived from its generator: the type every store's
 * translation needs (an array is matched element by element, a date compares as a string, a
 * field present in only some documents needs `$exists` care), and the resolution of a dotted
 * path (`stats.views`, `comments.author`) through nested objects and arrays.
 */
import type { GeneratorSpec } from './schema.ts';

export type ScalarType = 'string' | 'int' | 'decimal' | 'date' | 'bool' | 'ref';

export type FieldInfo =
  | {
      kind: 'scalar';
      type: ScalarType;
      required: boolean;
      ref?: string;
      decimals?: number;
      /** An enum's values: all the field can hold (a store that collates text otherwise checks them). */
      values?: readonly (string | number)[];
    }
  | { kind: 'array'; element: FieldInfo; required: boolean }
  | { kind: 'object'; fields: ReadonlyMap<string, FieldInfo>; required: boolean };

/** A collection's documents: `_id` (a string) and the generated fields. */
export type DocumentInfo = ReadonlyMap<string, FieldInfo>;

/** What a faker method returns, found by calling it once (faker.ts). */
export type FakerTypeOf = (method: string, args: readonly unknown[] | undefined) => ScalarType;

export function fieldInfo(spec: GeneratorSpec, fakerType: FakerTypeOf): FieldInfo {
  const required = (spec.present ?? 1) >= 1;
  switch (spec.type) {
    case 'faker':
      return { kind: 'scalar', type: fakerType(spec.method, spec.args), required };
    case 'int':
      return { kind: 'scalar', type: 'int', required };
    case 'decimal':
      return { kind: 'scalar', type: 'decimal', required, decimals: spec.scale ?? 2 };
    case 'date':
      return { kind: 'scalar', type: 'date', required };
    case 'bool':
      return { kind: 'scalar', type: 'bool', required };
    case 'ref':
      return { kind: 'scalar', type: 'ref', required, ref: spec.collection };
    case 'enum': {
      const values = Array.isArray(spec.values) ? spec.values : Object.keys(spec.values);
      // A weighted enum's values are the map's keys: strings.
      const numbers = Array.isArray(spec.values) && values.every((v) => typeof v === 'number');
      return {
        kind: 'scalar',
        type: numbers ? (values.every((v) => Number.isInteger(v)) ? 'int' : 'decimal') : 'string',
        required,
        values,
      };
    }
    case 'array':
      return { kind: 'array', element: { ...fieldInfo(spec.of, fakerType), required: true }, required };
    case 'object':
      return { kind: 'object', fields: documentInfo(spec.fields, fakerType), required };
  }
}

export function documentInfo(fields: Readonly<Record<string, GeneratorSpec>>, fakerType: FakerTypeOf): DocumentInfo {
  const out = new Map<string, FieldInfo>([['_id', { kind: 'scalar', type: 'string', required: true }]]);
  for (const [name, spec] of Object.entries(fields)) out.set(name, fieldInfo(spec, fakerType));
  return out;
}

/** Where a dotted path leads. */
export interface ResolvedPath {
  path: string;
  /** The field at the end of the path (for a path through an array, the element's field). */
  leaf: FieldInfo;
  /** The path's segments up to and including each array it crosses (`comments` for `comments.author`). */
  arrays: string[];
  /** Every document has a value here (no optional field on the way, no array crossed). */
  required: boolean;
}

/** Resolve `path` in a document; undefined when it names nothing (the caller says so, with the names it could have meant). */
export function resolvePath(doc: DocumentInfo, path: string): ResolvedPath | undefined {
  const segments = path.split('.');
  let fields: ReadonlyMap<string, FieldInfo> | undefined = doc;
  let current: FieldInfo | undefined;
  let required = true;
  const arrays: string[] = [];
  for (let i = 0; i < segments.length; i++) {
    if (fields === undefined) return undefined;
    current = fields.get(segments[i]!);
    if (current === undefined) return undefined;
    required &&= current.required;
    // Through arrays to the element (MongoDB matches `comments.author` against every element's author).
    while (current.kind === 'array') {
      arrays.push(segments.slice(0, i + 1).join('.'));
      required = false;
      current = current.element;
    }
    fields = current.kind === 'object' ? current.fields : undefined;
  }
  return current === undefined ? undefined : { path, leaf: current, arrays, required };
}

/** Every path of a document's scalar fields, for "did you mean" hints. */
export function allPaths(doc: DocumentInfo, prefix = ''): string[] {
  const out: string[] = [];
  for (const [name, info] of doc) {
    const path = `${prefix}${name}`;
    out.push(path);
    let inner: FieldInfo = info;
    while (inner.kind === 'array') inner = inner.element;
    if (inner.kind === 'object') out.push(...allPaths(inner.fields, `${path}.`));
  }
  return out;
}

/** Whether one path is, contains or lies within the other (`stats` and `stats.views`). */
export function overlaps(a: string, b: string): boolean {
  return a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);
}

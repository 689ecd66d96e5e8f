// Records every module a process loads (its resolved URL, one a line) into the file named by
// DOCBENCH_RECORD_IMPORTS: `node --import ./test/support/record-imports.mjs …`. A resolve hook
// sees every import, static and dynamic, whichever loader (tsx's) runs first.
import { register } from 'node:module';

const hooks = `
import { appendFileSync } from 'node:fs';
let file;
export function initialize(data) { file = data.file; }
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(file, resolved.url + '\\n');
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { file: process.env.DOCBENCH_RECORD_IMPORTS } });

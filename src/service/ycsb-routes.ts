/**
 * YCSB's five operations as the REST API a web developer would write for a key-value table:
 *
 *   GET    /usertable/:key[?fields=a,b]         read      200 {key, fields} | 404
 *   PUT    /usertable/:key     {field: value}    update    204 | 404 (store could tell the key was missing)
 *   DELETE /usertable/:key                       delete    204 | 404
 *   POST   /usertable          {key, fields}     insert    201 {key}
 *   GET    /usertable?start=&count=[&fields=]    scan      200 {records: [{key, fields}]} | 404 (no record from start on)
 *
 * An empty scan is 404, as direct mode files it NOT_FOUND: YCSB starts a scan at a key it loaded,
 * so a scan that finds nothing means the record is missing (see runner/timed-store.ts).
 * (`usertable` is the workload's `table`.) Every call goes through the same Store adapter that
 * direct mode uses; this file only validates, calls, and picks the status code.
 */
import type { FastifyInstance } from 'fastify';
import type { StoreGate } from './store-gate.ts';
import { parseParameters, ycsbSchemas, type TableLayout } from './validation.ts';

export interface YcsbRouteOptions {
  gate: StoreGate;
  layout: TableLayout;
  /** Longest field value accepted (the body limit bounds it anyway; this names it in the 400). */
  maxValueLength: number;
}

export function registerYcsbRoutes(app: FastifyInstance, options: YcsbRouteOptions): void {
  const { gate, layout } = options;
  const table = layout.table;
  const s = ycsbSchemas(layout, options.maxValueLength);
  const base = `/${table}`;

  app.get(`${base}/:key`, async (request, reply) => {
    const { key } = parseParameters(s.keyParams, request.params, 'path');
    const fields = s.fieldList(parseParameters(s.readQuery, request.query, 'query').fields);
    const record = await gate.use((store) => store.read(table, key, fields));
    if (record === null) return reply.code(404).send({ error: 'not found', key });
    return { key, fields: record };
  });

  app.put(`${base}/:key`, async (request, reply) => {
    const { key } = parseParameters(s.keyParams, request.params, 'path');
    parseParameters(s.noQuery, request.query, 'query');
    const values = parseParameters(s.updateBody, request.body, 'body');
    const found = await gate.use((store) => store.update(table, key, values));
    if (!found) return reply.code(404).send({ error: 'not found', key });
    return reply.code(204).send();
  });

  app.delete(`${base}/:key`, async (request, reply) => {
    const { key } = parseParameters(s.keyParams, request.params, 'path');
    parseParameters(s.noQuery, request.query, 'query');
    const found = await gate.use((store) => store.delete(table, key));
    if (!found) return reply.code(404).send({ error: 'not found', key });
    return reply.code(204).send();
  });

  app.post(base, async (request, reply) => {
    parseParameters(s.noQuery, request.query, 'query');
    const { key, fields } = parseParameters(s.insertBody, request.body, 'body');
    await gate.use((store) => store.insert(table, key, fields));
    return reply.code(201).header('location', `${base}/${key}`).send({ key });
  });

  app.get(base, async (request, reply) => {
    const query = parseParameters(s.scanQuery, request.query, 'query');
    const fields = s.fieldList(query.fields);
    const count = Number(query.count);
    const records = await gate.use((store) => store.scan(table, query.start, count, fields));
    if (records.length === 0 && count > 0)
      return reply.code(404).send({ error: 'no record at or after start', start: query.start });
    return { records };
  });
}

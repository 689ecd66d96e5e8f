/**
 * The yardstick of bench/service-overhead.ts: the HTTP service a web developer would write by hand
 * for YCSB's read and update, one Fastify route per operation calling the store's official driver
 * directly (no validation schemas, no store gate, no counters): GET /usertable/:key answers
 * {key, fields} or 404, PUT /usertable/:key sets the body's fields and answers 204. It connects to
 * docbench's local server for the store (docbench's session code opens the connection, so the
 * driver and its pool settings are the ones docbench uses; the routes then call the driver alone)
 * and prints the port it listens on. Its drivers are bench/bare-service-drivers.ts.
 *
 *   node --import tsx bench/bare-service.ts <store> [pool]
 */
import Fastify from 'fastify';
import { openStore, requestOf } from '../src/session/store-session.ts';
import { STORE_NAMES, type HandleOf, type StoreName } from '../src/stores/stores.ts';
import { loadWorkload } from '../src/workload/workload-file.ts';
import type { NotMeasured } from './bare-readers.ts';
import { BARE_SERVICES, storesWithBareService, type BareService, type Fields } from './bare-service-drivers.ts';
import { badArgument, benchArgs, namesOf, numberOf } from './bench-args.ts';

const { positionals } = benchArgs({
  script: import.meta.url,
  summary: `The hand-written service bench/service-overhead.ts compares docbench serve with; <store> is one of ${storesWithBareService(STORE_NAMES).join(', ')}, [pool] the driver's pool (default 16).`,
  options: {},
  positionals: '<store> [pool]',
});
const [storeArgument, pool = '16', ...extra] = positionals;
if (storeArgument === undefined) badArgument(import.meta.url, '<store> is missing');
if (extra.length > 0) badArgument(import.meta.url, `unexpected argument '${extra[0]}'`);
const [store] = namesOf(import.meta.url, '<store>', storeArgument, storesWithBareService(STORE_NAMES)) as [StoreName];
numberOf(import.meta.url, '[pool]', pool);

const TABLE = 'usertable';
const open = await openStore(
  store,
  undefined,
  requestOf(loadWorkload(['workloadc'], [`threadcount=${pool}`]).properties),
);
// Every store named above has a bare service; the handle is that of the store opened by its name.
const service: BareService<StoreName> | NotMeasured = BARE_SERVICES[store];
if ('none' in service) throw new Error(`${store}: ${service.none}`);
const driver = await service.open(open.store.handle as HandleOf<StoreName>, open.url, TABLE);
const app = Fastify({ logger: false });
app.get<{ Params: { key: string } }>(`/${TABLE}/:key`, async (request, reply) => {
  const fields = await driver.read(request.params.key);
  if (fields === null) return reply.code(404).send({ error: 'not found' });
  return { key: request.params.key, fields };
});
app.put<{ Params: { key: string }; Body: Fields }>(`/${TABLE}/:key`, async (request, reply) => {
  await driver.update(request.params.key, request.body);
  return reply.code(204).send();
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(new URL(address).port);
const stop = () =>
  void app
    .close()
    .then(() => open.store.close())
    .then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

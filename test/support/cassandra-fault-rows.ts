/**
 * The Cassandra rows of test/integration/failure-kinds.test.ts, run as a child process of it:
 * `node --import tsx test/support/cassandra-fault-rows.ts <url> <keyspace>`. Through a forwarder
 * in front of the node at <url>, the store (docbench's adapter) meets the node paused (the
 * forwarder holds every byte), killed mid-call (it resets the connections under a call) and down
 * (it refuses new ones). Each row is printed as one JSON line: what, the error's shape, the status
 * the classifier gave.
 *
 * Why a child process: once its connections are reset, cassandra-driver 4.10 can keep a replaced
 * host's pool reconnecting after the client's shutdown(), a timer that would keep the test's own
 * process alive. This process exits explicitly when done, as the CLI does (bin/docbench.js).
 */
import { statusOfError } from '../../src/measure/timed.ts';
import { createStore } from '../../src/stores/cassandra/index.ts';
import { forward, throughForwarder } from './forwarder.ts';
import { waitFor } from './wait.ts';

const [url, keyspace] = process.argv.slice(2) as [string, string];
const TABLE = 'usertable';
const IN_FLIGHT_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function failure(call: () => Promise<unknown>): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('the call succeeded, but the fault should have made it fail');
}

function shape(error: unknown): string {
  const { name, message } = error as { name?: string; message?: string };
  return `${name ?? 'Error'}: ${String(message ?? '')
    .split('\n')[0]!
    .slice(0, 120)}`;
}

function report(what: string, error: unknown): void {
  process.stdout.write(`${JSON.stringify({ what, shape: shape(error), status: statusOfError(error) })}\n`);
}

const { port } = new URL(url.replace(/^cassandra:/, 'http:'));
const forwarder = await forward('127.0.0.1', Number(port));
const store = createStore({
  url: throughForwarder(url, forwarder),
  settings: { 'cassandra.keyspace': keyspace, 'cassandra.readtimeout': '1000' },
  concurrency: 1,
});
try {
  await store.connect();
  await store.prepare({ table: TABLE, fieldNames: ['field0'] });
  await store.insert(TABLE, 'user1', { field0: 'v' });
  const read = () => store.read(TABLE, 'user1', null);

  forwarder.pause();
  report('cassandra, paused', await failure(read));
  forwarder.reset();
  forwarder.resume();
  // The driver reconnects after the reset; the next row needs a connection to cut.
  await waitFor(
    () =>
      read().then(
        () => true,
        () => false,
      ),
    'the driver to reconnect',
    { everyMs: 200 },
  );

  forwarder.pause();
  const inFlight = failure(read);
  await sleep(IN_FLIGHT_MS);
  forwarder.reset();
  forwarder.resume();
  report('cassandra, killed mid-call (connections reset)', await inFlight);

  await forwarder.refuse();
  report('cassandra, down (connections refused)', await failure(read));
} finally {
  await store.close().catch(() => {});
  await forwarder.close();
  // The test's keyspace is dropped straight at the node, not through the forwarder it just broke.
  const direct = createStore({ url, settings: {}, concurrency: 1 });
  await direct.connect();
  await direct.handle.client.execute(`DROP KEYSPACE IF EXISTS "${keyspace}"`);
  await direct.close();
}
process.exit(0);

/**
 * The health check of a local server that speaks MongoDB's protocol (the MongoDB stand-in, and
 * FerretDB, which is reached through this store's code): the driver's `ping`. Named local-target*
 * so that `docbench status` may load it with the local targets; the driver itself loads only
 * when a check runs.
 */

/** True when the server at `url` answers `ping` through the driver within `timeoutMs`. */
export async function answersPing(url: string, timeoutMs = 2000): Promise<boolean> {
  const { MongoClient } = await import('mongodb');
  const client = new MongoClient(url, {
    serverSelectionTimeoutMS: timeoutMs,
    connectTimeoutMS: timeoutMs,
    maxPoolSize: 1,
  });
  try {
    await client.connect();
    const reply = await client.db('admin').command({ ping: 1 }, { timeoutMS: timeoutMs });
    return reply.ok === 1;
  } catch {
    return false;
  } finally {
    await client.close().catch(() => {});
  }
}

/**
 * Polling Cassandra's system views while it builds an index (SAI): the node may be too busy
 * building it to answer a poll within the driver's read timeout. Such a timeout means "not yet",
 * not a failure: the poll is asked again, within the wait's own time limit (src/stores/wait.ts).
 */
import cassandra from 'cassandra-driver';

export function notYetOnTimeout(poll: () => Promise<boolean>): () => Promise<boolean> {
  return async () => {
    try {
      return await poll();
    } catch (error) {
      if (error instanceof cassandra.errors.OperationTimedOutError) return false;
      throw error;
    }
  };
}

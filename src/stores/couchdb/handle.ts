/**
 * The scenario-facing handle: what the scenario dialects need to run their work in CouchDB's own
 * idiom (Mango `_find`, views, `_bulk_docs`) on the store's connection pool, and the document
 * helpers the YCSB operations share with them, so every caller reads a missing document and
 * checks a bulk write the same way.
 */
import type nano from 'nano';
import { statusOf } from './connection.ts';
import { databaseFor, type CouchdbConfig } from './settings.ts';

export class CouchdbHandle {
  constructor(
    /** nano's server scope on the store's keep-alive pool. */
    readonly server: nano.ServerScope,
    private readonly config: CouchdbConfig,
  ) {}

  /** The database a table (or a scenario's collection) maps to: the URL's or `couchdb.database` when given, else its own name. */
  databaseName(table: string): string {
    return databaseFor(this.config, table);
  }

  /** The nano scope of the database a table maps to. */
  database<D>(table: string): nano.DocumentScope<D> {
    return this.server.use<D>(this.databaseName(table));
  }

  /** Create a database; one that exists already is fine. */
  async createDatabase(name: string): Promise<void> {
    try {
      await this.server.db.create(name);
    } catch (error) {
      if (statusOf(error) !== 412) throw error; // 412 file_exists: already there, fine
    }
  }

  /** Delete a database; one that does not exist is fine. */
  async destroyDatabase(name: string): Promise<void> {
    try {
      await this.server.db.destroy(name);
    } catch (error) {
      if (statusOf(error) !== 404) throw error; // nothing to drop
    }
  }

  /** GET a document; null when CouchDB says 404 (it never existed, or was deleted). */
  async getOrNull<D>(db: nano.DocumentScope<D>, id: string): Promise<(nano.DocumentGetResponse & D) | null> {
    try {
      return await db.get(id);
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  /**
   * POST `_bulk_docs`. CouchDB answers 201 even when single documents fail (a conflict on an
   * existing id, say), so every per-document result is checked; the first failure is reported.
   */
  async bulkDocs<D>(db: nano.DocumentScope<D>, docs: readonly D[]): Promise<void> {
    if (docs.length === 0) return;
    const results = await db.bulk({ docs: docs as D[] });
    const failed = results.filter((r) => r.error);
    const first = failed[0];
    if (first) {
      throw new Error(`_bulk_docs stored ${docs.length - failed.length} of ${docs.length} documents; first failure "${first.id}": ${first.error} (${first.reason ?? 'no reason given'})`);
    }
  }
}

/**
 * The scenario-facing handle: what the scenario dialects need to run their work in CouchDB's own
 * idiom (Mango `_find`, views, `_bulk_docs`) on the store's connection pool, and the document
 * helpers the YCSB operations share with them, so every caller reads a missing document and
 * checks a bulk write the same way.
 */
import { isDeepStrictEqual } from 'node:util';
import type nano from 'nano';
import type { PlanEvidence } from '../query-plan.ts';
import { accessDenied, reasonOf, statusOf } from './connection.ts';
import { explainMango } from './explain.ts';
import { databaseFor, type CouchdbConfig } from './settings.ts';

/** What `putDesignDocument` did. */
export type DesignDocumentOutcome = 'created' | 'updated' | 'unchanged';

/**
 * A 404 that means "no such document": CouchDB's reason is "missing" (never written) or
 * "deleted". A 404 for a database that does not exist ("Database does not exist.") is not a
 * missing record: it is an error, or a whole run would read as NOT_FOUND.
 */
export function isMissingDocument(error: unknown): boolean {
  if (statusOf(error) !== 404) return false;
  const reason = reasonOf(error);
  return reason === 'missing' || reason === 'deleted';
}

/** What to do when the user may not create or drop databases. */
const ADMIN_NEEDED =
  "only a server admin may create or delete databases in CouchDB: give an admin's login, or create the database first and run with a member";

/** Attempts to write a design document while other writers (service workers, a second run) race for it. */
const DESIGN_WRITE_ATTEMPTS = 5;

export class CouchdbHandle {
  /** Databases this store used (YCSB tables, scenario collections), in order of first use. */
  private readonly used: string[] = [];

  constructor(
    /** nano's server scope on the store's keep-alive pool. */
    readonly server: nano.ServerScope,
    private readonly config: CouchdbConfig,
  ) {}

  /** The database a table (or a scenario's collection) maps to: the URL's or `couchdb.database` when given, else its own name. */
  databaseName(table: string): string {
    const name = databaseFor(this.config, table);
    if (!this.used.includes(name)) this.used.push(name);
    return name;
  }

  /** The databases used so far, newest first (stats describe the newest one that exists). */
  databasesUsed(): string[] {
    return [...this.used].reverse();
  }

  /** The nano scope of the database a table maps to. */
  database<D>(table: string): nano.DocumentScope<D> {
    return this.server.use<D>(this.databaseName(table));
  }

  /** How CouchDB runs a Mango query on a table's database: `_explain`, and `_find` with execution_stats (explain.ts). */
  explainFind(table: string, query: nano.MangoQuery): Promise<PlanEvidence> {
    return explainMango(this.server, this.databaseName(table), query);
  }

  /**
   * Create a database; one that exists already is fine, and is left alone without asking to
   * create it: only a server admin may, so a member loading its own database would be refused.
   * A user who may not create one that is missing is an AccessDeniedError.
   */
  async createDatabase(name: string): Promise<void> {
    if (await this.databaseExists(name)) return;
    try {
      await this.server.db.create(name);
    } catch (error) {
      if (statusOf(error) === 412) return; // 412 file_exists: already there, fine
      throw accessDenied(error, this.config, `the login may not create the database "${name}"`, ADMIN_NEEDED) ?? error;
    }
  }

  /**
   * Whether a database exists (GET /{db}: 404 when it does not, even without a login). A user
   * who may not read it is an AccessDeniedError; any other failure is thrown.
   */
  async databaseExists(name: string): Promise<boolean> {
    try {
      await this.server.db.get(name);
      return true;
    } catch (error) {
      if (statusOf(error) === 404) return false;
      throw (
        accessDenied(
          error,
          this.config,
          `the login may not read the database "${name}"`,
          "make the user a member of the database (its _security object), or give an admin's login",
        ) ?? error
      );
    }
  }

  /** Delete a database; one that does not exist is fine. A user who may not is an AccessDeniedError. */
  async destroyDatabase(name: string): Promise<void> {
    try {
      await this.server.db.destroy(name);
    } catch (error) {
      if (statusOf(error) === 404) return; // nothing to drop
      throw accessDenied(error, this.config, `the login may not delete the database "${name}"`, ADMIN_NEEDED) ?? error;
    }
  }

  /** GET a document; null when CouchDB says it is missing or deleted (never when the database is missing). */
  async getOrNull<D>(db: nano.DocumentScope<D>, id: string): Promise<(nano.DocumentGetResponse & D) | null> {
    try {
      return await db.get(id);
    } catch (error) {
      if (isMissingDocument(error)) return null;
      throw error;
    }
  }

  /**
   * Make the design document `id` hold `content` (views, language, …), idempotently: left alone
   * when it already does, else written with the revision it has, so a second run, or several
   * service processes building it at once, never fail on CouchDB's update conflict. A 409 means
   * another writer got in between: read again and compare.
   */
  async putDesignDocument<D>(
    db: nano.DocumentScope<D>,
    id: string,
    content: Record<string, unknown>,
  ): Promise<DesignDocumentOutcome> {
    for (let attempt = 1; ; attempt++) {
      const existing = (await this.getOrNull(db, id)) as (Record<string, unknown> & { _rev?: string }) | null;
      if (existing !== null) {
        const { _id, _rev, ...current } = existing;
        if (isDeepStrictEqual(current, content)) return 'unchanged';
      }
      try {
        await db.insert({ ...content, _id: id, ...(existing?._rev ? { _rev: existing._rev } : {}) } as never);
        return existing === null ? 'created' : 'updated';
      } catch (error) {
        if (statusOf(error) !== 409 || attempt >= DESIGN_WRITE_ATTEMPTS) throw error;
      }
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
      throw new Error(
        `_bulk_docs stored ${docs.length - failed.length} of ${docs.length} documents; first failure "${first.id}": ${first.error} (${first.reason ?? 'no reason given'})`,
      );
    }
  }
}

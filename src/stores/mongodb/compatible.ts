/**
 * Which product answers on MongoDB's wire protocol. FerretDB, Amazon DocumentDB and Azure Cosmos
 * DB for MongoDB each report a MongoDB version in buildInfo (FerretDB v1.24 says 7.0.42), so a
 * result that took that version at its word would name MongoDB for figures that are another
 * product's. Each is told apart by its own answers, as documented or as its replies carry them:
 *
 *   FerretDB        buildInfo.ferretdbVersion (and ferretdbFeatures), its own version (v1.x);
 *                   FerretDB v2 answers buildInfo.ferretdb.version
 *   Cosmos DB       the host name (*.cosmos.azure.com: RU accounts *.mongo.cosmos.azure.com, vCore
 *                   clusters *.mongocluster.cosmos.azure.com), and `_t: "OKMongoResponse"` in
 *                   its replies (the RU accounts' gateway adds it to every answer)
 *   DocumentDB      the host name (*.docdb.amazonaws.com, elastic clusters
 *                   *.docdb-elastic.amazonaws.com): what MongoDB's own tools (mongodb-build-info)
 *                   go by, since its buildInfo has a mongod's fields
 *
 * A server docbench runs as a labelled stand-in (SecantusDB) is not here: stats.ts names it a
 * stand-in, since it stands in for MongoDB on this machine; these are products in their own right.
 */
import type { Document } from 'mongodb';
import type { CompatibleProduct } from '../store.ts';

/** What the detection reads: the server's answers and the host the URL names. */
export interface MongoAnswers {
  buildInfo?: Document;
  hello?: Document;
  /** The first host of the URL, without its port. */
  host?: string;
}

const COSMOS_HOST = /\.cosmos\.azure\.com\.?$/i;
const DOCUMENTDB_HOST = /\.docdb(-elastic)?\.amazonaws\.com\.?$/i;

const note = (what: string) => `MongoDB-compatible, not MongoDB: ${what}`;

/** The product behind a MongoDB-compatible server, or undefined for MongoDB itself (or a server no marker names). */
export function mongoCompatibleProduct(answers: MongoAnswers): CompatibleProduct | undefined {
  const build = answers.buildInfo ?? {};
  const reported = typeof build.version === 'string' ? build.version : undefined;
  const reports = reported ? ` (it reports MongoDB ${reported})` : '';
  const ferretdb =
    typeof build.ferretdbVersion === 'string'
      ? build.ferretdbVersion
      : typeof (build.ferretdb as Document | undefined)?.version === 'string'
        ? String((build.ferretdb as Document).version)
        : undefined;
  if (ferretdb !== undefined) {
    return {
      product: 'FerretDB',
      version: ferretdb,
      note: note(
        `FerretDB ${ferretdb} translates MongoDB's commands for a SQL engine${reports}; its figures are FerretDB's`,
      ),
    };
  }
  const host = answers.host ?? '';
  if (COSMOS_HOST.test(host) || build._t === 'OKMongoResponse' || answers.hello?._t === 'OKMongoResponse') {
    return {
      product: 'Azure Cosmos DB for MongoDB',
      version: 'unknown',
      note: note(
        `Azure Cosmos DB's API for MongoDB${reports}, a service of its own (request units, its own engine); its figures are Cosmos DB's`,
      ),
    };
  }
  if (DOCUMENTDB_HOST.test(host)) {
    return {
      product: 'Amazon DocumentDB',
      version: 'unknown',
      note: note(
        `Amazon DocumentDB, a service with its own engine implementing MongoDB's API${reports}; its figures are DocumentDB's`,
      ),
    };
  }
  return undefined;
}

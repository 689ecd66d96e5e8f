/**
 * Which product answers on CouchDB's HTTP API. Every server of that API answers `GET /` with
 * CouchDB's welcome document (`{"couchdb": "Welcome", "version": …, "vendor": {"name": …}}`), and
 * the vendor tells them apart: Apache CouchDB's is "The Apache Software Foundation"; IBM Cloudant
 * names itself "IBM Cloudant" (its own build number as the vendor's version); Couchbase Sync
 * Gateway names itself "Couchbase Sync Gateway" (and its `version` string starts with it). Any
 * other vendor is named as it names itself. pouchdb-server (express-pouchdb's welcome) is not
 * here: it is docbench's labelled local stand-in (stats.ts).
 */
import type { CompatibleProduct } from '../store.ts';

/** GET / of a server speaking CouchDB's API, the fields read here. */
export interface CouchWelcome {
  couchdb?: string;
  'express-pouchdb'?: string;
  version?: string;
  vendor?: { name?: string; version?: string; variant?: string };
}

const APACHE = 'The Apache Software Foundation';
const CLOUDANT_HOST = /\.(cloudant\.com|cloudantnosqldb\.appdomain\.cloud)\.?$/i;

const note = (what: string) => `CouchDB-compatible, not Apache CouchDB: ${what}`;

/** The product behind a CouchDB-compatible server, or undefined for Apache CouchDB (and the pouchdb-server stand-in). */
export function couchCompatibleProduct(welcome: CouchWelcome, host = ''): CompatibleProduct | undefined {
  if (welcome['express-pouchdb'] !== undefined && welcome.couchdb === undefined) return undefined;
  const vendor = welcome.vendor?.name;
  const reports = welcome.version ? ` (it reports CouchDB ${welcome.version})` : '';
  if ((vendor !== undefined && /cloudant/i.test(vendor)) || CLOUDANT_HOST.test(host)) {
    return {
      product: 'IBM Cloudant',
      version: welcome.vendor?.version ?? 'unknown',
      note: note(`IBM Cloudant, a service of its own built from CouchDB${reports}; its figures are Cloudant's`),
    };
  }
  if (vendor !== undefined && /sync gateway/i.test(vendor)) {
    const version = welcome.vendor?.version ?? /Sync Gateway\/([\w.]+)/.exec(welcome.version ?? '')?.[1] ?? 'unknown';
    return {
      product: 'Couchbase Sync Gateway',
      version,
      note: note(
        `Couchbase Sync Gateway serves a part of CouchDB's API over Couchbase Server; its figures are Sync Gateway's`,
      ),
    };
  }
  if (welcome.couchdb === undefined || (vendor !== undefined && vendor !== APACHE)) {
    const product = vendor ?? 'an unnamed CouchDB-compatible server';
    return {
      product,
      version: welcome.vendor?.version ?? 'unknown',
      note: note(`the server names its vendor "${vendor ?? 'none'}"${reports}; its figures are that server's`),
    };
  }
  return undefined;
}

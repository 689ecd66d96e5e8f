/**
 * The URL's `sslmode` with libpq's meaning, made into node-postgres's TLS options. docbench reads
 * it itself because node-postgres 8 does not: its pg-connection-string reads prefer, require and
 * verify-ca as verify-full (a full certificate check against Node's CAs) and prints a security
 * warning, so `sslmode=require` (what managed services hand out) would fail against a server
 * whose CA Node does not know, and `prefer` against a server without TLS.
 *
 *   (none)       no TLS, node-postgres's default (libpq's is prefer); sslrootcert alone: verify-full
 *   disable      no TLS
 *   allow, prefer  TLS if the server offers it (asked once at connect), without a certificate
 *                check; plain if it does not. (libpq's allow tries plain first; node-postgres
 *                cannot fall back within a connection, so docbench asks the server instead.)
 *   require      TLS, no certificate check; with sslrootcert, as verify-ca (libpq's rule)
 *   verify-ca    TLS, the certificate must chain to sslrootcert's CA (needed); any host name
 *   verify-full  TLS, the certificate must chain to sslrootcert's CA (default: Node's CAs, as
 *                sslrootcert=system) and name the URL's host
 *   no-verify    node-postgres's own: TLS, no certificate check
 *
 * sslcert and sslkey (a client certificate) go with any mode that uses TLS.
 */
import { readFileSync } from 'node:fs';
import type { ConnectionOptions } from 'node:tls';
import { PostgresUrlError, type PostgresUrl } from './url.ts';

export interface TlsPlan {
  /** off: plain; on: always TLS; if-offered: TLS when the server answers the SSLRequest with 'S'. */
  readonly use: 'off' | 'on' | 'if-offered';
  /** node-postgres's `ssl` option when TLS is used. */
  readonly options: ConnectionOptions;
  /** For results and messages: the mode and what is checked. */
  readonly describe: string;
}

export function tlsPlan(target: PostgresUrl): TlsPlan {
  const mode = target.sslmode ?? (target.sslrootcert !== undefined ? 'verify-full' : undefined);
  const read = (parameter: 'sslrootcert' | 'sslcert' | 'sslkey'): string | undefined => {
    const file = target[parameter];
    if (file === undefined || (parameter === 'sslrootcert' && file === 'system')) return undefined;
    try {
      return readFileSync(file, 'utf8');
    } catch (error) {
      const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
      throw new PostgresUrlError(target.displayUrl, `has ${parameter}=${file}, which cannot be read (${why})`);
    }
  };
  const systemCa = target.sslrootcert === 'system';
  if (systemCa && mode !== 'verify-full' && mode !== undefined)
    throw new PostgresUrlError(
      target.displayUrl,
      `has sslrootcert=system with sslmode=${mode}; the system's CAs need sslmode=verify-full (as in libpq)`,
    );
  const ca = read('sslrootcert');
  const client: ConnectionOptions = {};
  const cert = read('sslcert');
  const key = read('sslkey');
  if (cert !== undefined) client.cert = cert;
  if (key !== undefined) client.key = key;
  const noCheck: ConnectionOptions = { ...client, rejectUnauthorized: false };
  // A CA given: the chain is checked, the host name is not (libpq's verify-ca).
  const chainOnly = (caText: string): ConnectionOptions => ({
    ...client,
    ca: caText,
    checkServerIdentity: () => undefined,
  });
  switch (mode) {
    case undefined:
    case 'disable':
      return { use: 'off', options: {}, describe: mode === undefined ? 'off (no sslmode)' : 'off (sslmode=disable)' };
    case 'allow':
    case 'prefer':
      return {
        use: 'if-offered',
        options: ca !== undefined ? chainOnly(ca) : noCheck,
        describe: `sslmode=${mode}: TLS if the server offers it, ${ca !== undefined ? 'the CA checked' : 'no certificate check'}`,
      };
    case 'require':
      return ca !== undefined
        ? {
            use: 'on',
            options: chainOnly(ca),
            describe: 'sslmode=require with sslrootcert: the CA checked, not the host name',
          }
        : { use: 'on', options: noCheck, describe: 'sslmode=require: encrypted, no certificate check' };
    case 'no-verify':
      return { use: 'on', options: noCheck, describe: 'sslmode=no-verify: encrypted, no certificate check' };
    case 'verify-ca':
      if (ca === undefined)
        throw new PostgresUrlError(
          target.displayUrl,
          'has sslmode=verify-ca without sslrootcert=<CA file>; give the CA that signed the server certificate, or use sslmode=verify-full (a public CA and the host name checked)',
        );
      return { use: 'on', options: chainOnly(ca), describe: 'sslmode=verify-ca: the CA checked, not the host name' };
    case 'verify-full':
      return {
        use: 'on',
        options: ca !== undefined ? { ...client, ca } : client,
        describe: `sslmode=verify-full: the certificate checked against ${ca !== undefined ? 'sslrootcert' : "Node's CAs"} and the host name`,
      };
  }
}

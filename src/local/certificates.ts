/**
 * A certificate authority of a local cluster's own, made with openssl on its first start, and a
 * certificate it signed for the cluster's loopback addresses: what a local server needs to serve
 * TLS, and what a client is told to trust (NODE_EXTRA_CA_CERTS=<the CA file>). Never a system CA.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface LocalCertificates {
  /** The CA's certificate (PEM): what clients trust. */
  ca: string;
  /** The server's certificate and its key (PEM). */
  cert: string;
  key: string;
  /** The key and the certificate in one PEM file (what Cassandra's PEM context factory reads). */
  keyAndCert: string;
}

export const hasOpenssl = (): boolean => spawnSync('openssl', ['version']).status === 0;

/** Make them in `dir` unless they are there; the certificate names every address of `addresses` (IP SANs). */
export function localCertificates(dir: string, addresses: readonly string[]): LocalCertificates {
  mkdirSync(dir, { recursive: true });
  const file = (name: string) => join(dir, name);
  const out: LocalCertificates = {
    ca: file('ca.pem'),
    cert: file('server.pem'),
    key: file('server.key'),
    keyAndCert: file('server-key-and-cert.pem'),
  };
  if (existsSync(out.keyAndCert)) return out;
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    out.ca,
    '-days',
    '3650',
    '-subj',
    '/CN=docbench local CA',
  );
  openssl(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    out.key,
    '-out',
    file('server.csr'),
    '-subj',
    `/CN=${addresses[0] ?? '127.0.0.1'}`,
  );
  writeFileSync(file('ext.cnf'), `subjectAltName=${addresses.map((a) => `IP:${a}`).join(',')}\n`);
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    out.ca,
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-out',
    out.cert,
    '-days',
    '3650',
    '-extfile',
    file('ext.cnf'),
  );
  // PKCS#8, as Cassandra's PEM reader expects an unencrypted private key in that form.
  const pkcs8 = execFileSync('openssl', ['pkcs8', '-topk8', '-nocrypt', '-in', out.key], { encoding: 'utf8' });
  writeFileSync(out.keyAndCert, `${pkcs8}${readFileSync(out.cert, 'utf8')}`);
  return out;
}

/**
 * Telling a TLS mismatch from other connect failures. A client that speaks TLS to a plain port
 * (or plain to a TLS port) rarely gets an error that says so: the plain server waits for a line
 * that never comes (a timeout), or the TLS server drops the connection (a reset). So when a
 * connect fails that way, the store asks the port directly, once: does it complete a TLS
 * handshake, or does it answer the store's plain protocol? Only an answer proves a mismatch; the
 * message then names it, and what the URL's scheme should be.
 */
import { connect as tcpConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** How long a probe waits: the port already accepted a connection, so an answer comes at once or never. */
export const PROBE_TIMEOUT_MS = 2000;

/** True when host:port completes a TLS handshake (any certificate: only the protocol is asked). */
export function speaksTls(urlHost: string, port: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const host = unbracket(urlHost);
  return new Promise((resolve) => {
    const socket = tlsConnect({ host, port, rejectUnauthorized: false, ...(isIp(host) ? {} : { servername: host }) });
    const done = (answer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('secureConnect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * The first bytes host:port answers to `hello` over plain TCP, or null when it answers nothing
 * within the time (or refuses, or closes). The caller checks they are its protocol's.
 */
export function plainAnswer(
  urlHost: string,
  port: number,
  hello: Buffer | string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Buffer | null> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: unbracket(urlHost), port });
    const done = (answer: Buffer | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    socket.once('connect', () => socket.write(hello));
    socket.once('data', (chunk: Buffer) => done(chunk));
    socket.once('error', () => done(null));
    socket.once('end', () => done(null));
  });
}

/** True when host:port refuses a TCP connection (nothing listens there). */
export function refusesConnections(urlHost: string, port: number, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = tcpConnect({ host: unbracket(urlHost), port });
    const done = (refused: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(refused);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(false));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code === 'ECONNREFUSED'));
  });
}

/** Node's codes for a TLS certificate that could not be verified. */
const UNTRUSTED_CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);
const WRONG_HOST = 'ERR_TLS_CERT_ALTNAME_INVALID';

/**
 * The same errors by Node's text, for a driver that keeps only the text (nano): "self-signed
 * certificate in certificate chain", "unable to verify the first certificate", …
 */
const UNTRUSTED_TEXT =
  /self[- ]signed certificate|unable to verify the first certificate|unable to get (local )?issuer certificate|certificate has expired|certificate is not yet valid/;
const WRONG_HOST_TEXT = /does not match certificate's altnames/;

/**
 * When `error` (or its cause) is a certificate the client would not trust, one line saying what
 * to do: the server speaks TLS, but its certificate is signed by a CA this machine does not know
 * (or names another host).
 */
export function untrustedCertificate(error: unknown): string | undefined {
  for (
    let e = error, depth = 0;
    typeof e === 'object' && e !== null && depth < 5;
    e = (e as { cause?: unknown }).cause, depth++
  ) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    const text = typeof message === 'string' ? message : String(code);
    if (code === WRONG_HOST || WRONG_HOST_TEXT.test(text))
      return `the server's TLS certificate is for another host name (${text}); connect with a name the certificate gives`;
    if ((typeof code === 'string' && UNTRUSTED_CERTIFICATE.has(code)) || UNTRUSTED_TEXT.test(text)) {
      return `the server speaks TLS but its certificate is not trusted here (${text}); give the CA that signed it with NODE_EXTRA_CA_CERTS=/path/to/ca.pem`;
    }
  }
  return undefined;
}

/** A URL's IPv6 host is in brackets; sockets take it without. */
function unbracket(host: string): string {
  return host.replace(/^\[(.*)\]$/, '$1');
}

function isIp(host: string): boolean {
  return /^[\d.]+$/.test(host) || host.includes(':');
}

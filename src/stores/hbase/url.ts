/**
 * The HBase connection URL: the address of an HBase REST gateway (`hbase rest start`).
 *
 *   hbase+rest://[USER:PASSWORD@]host[:port][/namespace]     plain HTTP (the gateway's default, port 8080)
 *   hbase+rests://[USER:PASSWORD@]host[:port][/namespace]    HTTPS (hbase.rest.ssl.enabled; port 8443 unless given)
 *
 * TLS: `hbase+rests` speaks HTTPS and checks the gateway's certificate against Node's CA store
 * (add a private CA with NODE_EXTRA_CA_CERTS, as for any Node program). Auth: a user and password
 * in the URL are sent as HTTP Basic auth on every request, which is what a gateway behind an
 * authenticating proxy (Apache Knox, a cloud provider's endpoint, nginx) takes. The REST server's
 * own Kerberos (SPNEGO) login is not supported: run docbench on a host whose proxy does it.
 * The path names the HBase namespace docbench's tables live in (default `default`).
 */
import { maskUrl } from '../../common/mask-url.ts';
import { UserError } from '../../common/user-error.ts';

export const URL_SHAPE = 'hbase+rest://[USER:PASSWORD@]host[:port][/namespace] (hbase+rests:// for HTTPS)';
export const DEFAULT_PORT = 8080;
export const DEFAULT_TLS_PORT = 8443;
export const DEFAULT_NAMESPACE = 'default';

/** HBase's rule for namespace and table qualifiers: letters, digits, `_`, `-`, `.`, not starting with `.` or `-`. */
export const NAME_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
export const NAME_RULE = 'letters, digits, _ - and ., not starting with . or -';

export interface HbaseUrl {
  /** `http://host:port` or `https://host:port`, without credentials or path. */
  baseUrl: string;
  tls: boolean;
  namespace: string;
  /** `Basic …` header value when the URL has a user. */
  authorization?: string;
  /** The URL with its password masked, for messages and results. */
  displayUrl: string;
}

export class HbaseUrlError extends UserError {
  constructor(url: string, problem: string) {
    super(`hbase: the URL "${maskUrl(url)}" ${problem}; expected ${URL_SHAPE}`);
  }
}

export function parseHbaseUrl(url: string): HbaseUrl {
  const scheme = /^(hbase\+rests?):\/\//i.exec(url.trim());
  if (!scheme) throw new HbaseUrlError(url, 'is not an hbase+rest:// or hbase+rests:// URL');
  const tls = scheme[1]!.toLowerCase() === 'hbase+rests';
  let parsed: URL;
  try {
    // Parsed as http(s) so that WHATWG URL rules (IPv6 brackets, %-escapes, ports) apply.
    parsed = new URL(`${tls ? 'https' : 'http'}://${url.trim().slice(scheme[0].length)}`);
  } catch {
    throw new HbaseUrlError(url, 'is not a valid URL (check the host and port)');
  }
  if (parsed.search || parsed.hash)
    throw new HbaseUrlError(url, 'has a query string or fragment (give settings as -p hbase.<name>=value)');
  if (parsed.password && !parsed.username) throw new HbaseUrlError(url, 'has a password but no user name');
  const path = parsed.pathname.replace(/^\/+|\/+$/g, '');
  let namespace = DEFAULT_NAMESPACE;
  if (path !== '') {
    try {
      namespace = decodeURIComponent(path);
    } catch {
      throw new HbaseUrlError(url, 'has a malformed %-escape in its namespace');
    }
    if (!NAME_PATTERN.test(namespace))
      throw new HbaseUrlError(
        url,
        `names the namespace "${namespace}", which is not an HBase namespace name (${NAME_RULE})`,
      );
  }
  const port = parsed.port === '' ? (tls ? DEFAULT_TLS_PORT : DEFAULT_PORT) : Number(parsed.port);
  const base = `${parsed.protocol}//${parsed.hostname}:${port}`;
  const out: HbaseUrl = { baseUrl: base, tls, namespace, displayUrl: maskUrl(url.trim()) };
  if (parsed.username) {
    const user = decodeURIComponent(parsed.username);
    const password = decodeURIComponent(parsed.password);
    out.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  }
  return out;
}

/**
 * Credentials never leave docbench in clear: every URL printed on a terminal or written into a
 * result goes through `maskUrl`. Each store's own URL parser masks its messages the same way;
 * this is the one the CLI uses for URLs of any store (and for text that is no valid URL at all).
 */

/**
 * The URL with its password replaced by `***`: everything from the first `:` after the scheme's
 * `//` to the last `@` before the query string, so a password holding an unescaped `@`, `/` or `:`
 * is still masked whole, never partly shown. A URL without a password is returned as it is.
 */
export function maskUrl(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme < 0 ? 0 : scheme + 3;
  const query = url.indexOf('?', start);
  const beforeQuery = query < 0 ? url : url.slice(0, query);
  const at = beforeQuery.lastIndexOf('@');
  if (at < start) return url;
  const colon = url.indexOf(':', start);
  if (colon < 0 || colon > at) return url;
  return `${url.slice(0, colon)}:***${url.slice(at)}`;
}

import type { IncomingHttpHeaders } from 'node:http';

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1, plus the obsolete
 * `Keep-Alive` and `Proxy-Connection` that clients still send): a proxy must not forward them in
 * either direction. `Transfer-Encoding` is framing of one hop too: Node frames each side itself.
 */
export const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
]);

/** The lower-case header names a `Connection` value lists (it may be repeated or comma-joined). */
export function connectionNamed(value: string | string[] | undefined): Set<string> {
  const named = new Set<string>();
  if (value === undefined) return named;
  for (const part of Array.isArray(value) ? value : [value]) {
    for (const token of part.split(',')) {
      const name = token.trim().toLowerCase();
      if (name) named.add(name);
    }
  }
  return named;
}

/**
 * Drops hop-by-hop headers and every header the message's own `Connection` names from a header
 * object, in place: used on the service's answer before it is copied to the client.
 */
export function stripHopByHop(headers: IncomingHttpHeaders): void {
  const named = connectionNamed(headers.connection);
  for (const name of Object.keys(headers)) {
    if (HOP_BY_HOP.has(name) || named.has(name)) delete headers[name];
  }
}

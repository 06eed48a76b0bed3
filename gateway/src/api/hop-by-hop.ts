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

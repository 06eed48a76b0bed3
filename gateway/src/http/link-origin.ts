import type { Request } from 'express';

// Loopback names: a link to one can reach only the reader's own machine.
const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * The origin a mailed link may point at: `PUBLIC_URL`; without it, the request's protocol and Host,
 * but only when that Host names this gateway's own listening address or a loopback name. Any other
 * Host was chosen by whoever asked for the code, who need not own the address: a link there would
 * carry the owner's sign-in token to that host (Host-header poisoning), so the mail then gives the code alone.
 */
export function linkOrigin(req: Request, publicUrl: string | undefined): string | undefined {
  if (publicUrl) return publicUrl;
  let url: URL;
  try {
    url = new URL(`${req.protocol}://${req.get('host') ?? ''}`);
  } catch {
    return undefined;
  }
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return undefined;
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const own = url.hostname.replace(/^\[|\]$/g, '') === req.socket.localAddress?.replace(/^::ffff:/, '') && port === req.socket.localPort;
  return own || LOOPBACK.test(url.hostname) ? url.origin : undefined;
}

import http from 'node:http';
import net from 'node:net';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';

/** What a raw call got back. */
export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** Parsed JSON body, when it is JSON. */
  json?: Record<string, unknown> & { data?: unknown; error?: { code: string; details?: unknown }; message?: string };
}

/**
 * One HTTP call with any method and header (Node's client sends what supertest and fetch refuse,
 * such as Trailer on a GET), a fresh connection unless an agent is given; rejects on a socket error
 * or after `timeoutMs`.
 */
export function rawCall(url: string, options: { method?: string; headers?: OutgoingHttpHeaders; body?: string; agent?: http.Agent; timeoutMs?: number } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // The path is taken as written: `new URL` would resolve dot segments before they are sent.
    const { origin } = new URL(url);
    const { hostname, port } = new URL(origin);
    // A body goes out framed, as every real client frames it: Node's client sends an OPTIONS,
    // DELETE or TRACE body with no Content-Length, which the server reads as the next request.
    const headers = { ...options.headers };
    const framed = Object.keys(headers).some((h) => h.toLowerCase() === 'content-length' || h.toLowerCase() === 'transfer-encoding');
    if (options.body !== undefined && !framed) headers['content-length'] = Buffer.byteLength(options.body);
    const req = http.request({ hostname, port, path: url.slice(origin.length) || '/', method: options.method ?? 'GET', headers, agent: options.agent ?? false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('error', reject);
      res.on('end', () => {
        let json: RawAnswer['json'];
        try {
          json = body ? (JSON.parse(body) as RawAnswer['json']) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json });
      });
    });
    req.setTimeout(options.timeoutMs ?? 10_000, () => req.destroy(new Error(`no answer within ${options.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Sends a request written by hand on a new socket (for what Node's client refuses to send, such
 * as `Trailer` on a GET without a body) and resolves with the status and headers of the answer.
 */
export function rawSocketCall(url: string, lines: string[]): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
    let data = '';
    const timer = setTimeout(() => socket.destroy(new Error('no complete answer within 10 s')), 10_000);
    const done = (): void => {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return;
      const [statusLine = '', ...headerLines] = data.slice(0, end).split('\r\n');
      const headers = Object.fromEntries(headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const body = data.slice(end + 4);
      const headOnly = lines[0]?.startsWith('HEAD ') === true;
      if (!headOnly && headers['content-length'] !== undefined && Buffer.byteLength(body) < Number(headers['content-length'])) return;
      clearTimeout(timer);
      socket.destroy();
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    };
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('utf8');
      done();
    });
    socket.on('error', reject);
  });
}

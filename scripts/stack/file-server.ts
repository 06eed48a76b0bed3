import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for a raw file host: one file, with ETag and Last-Modified for conditional GETs. */
export interface FileServer {
  url: string;
  close: () => Promise<void>;
}

/** Serves `path` at `/<name>` (on a free loopback port by default), answering 304 to a matching conditional GET. */
export async function startFileServer(path: string, name: string, at: { host?: string; port?: number } = {}): Promise<FileServer> {
  const host = at.host ?? '127.0.0.1';
  const body = readFileSync(path);
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
  const lastModified = statSync(path).mtime.toUTCString();
  const server = createServer((req, res) => {
    if (req.url !== `/${name}`) {
      res.writeHead(404).end('not found');
      return;
    }
    res.setHeader('etag', etag);
    res.setHeader('last-modified', lastModified);
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(at.port ?? 0, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}/${name}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

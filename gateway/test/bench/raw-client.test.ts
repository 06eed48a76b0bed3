import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { RawHttpClient } from '../../bench/raw-client';

/** Answers each request on a connection with the bytes scripted for its path, in the writes given. */
const SCRIPT: Record<string, string[]> = {
  '/length': ['HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel', 'lo'],
  '/chunked': ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhe', 'llo\r\n3;ext=1\r\nabc\r\n0\r\nX-Trailer: 1\r\n', '\r\n'],
  '/chunked-plain': ['HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n'],
  '/no-content': ['HTTP/1.1 204 No Content\r\n\r\n'],
  '/unframed': ['HTTP/1.1 200 OK\r\n\r\nbody'],
  '/too-long': ['HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabc'],
};

let server: net.Server;
let client: RawHttpClient;
let connections = 0;
beforeAll(async () => {
  server = net.createServer((socket) => {
    connections++;
    let pending = '';
    socket.on('data', (chunk: Buffer) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end >= 0; end = pending.indexOf('\r\n\r\n')) {
        const path = pending.split(' ')[1] as string;
        pending = pending.slice(end + 4);
        const writes = SCRIPT[path] ?? [];
        writes.forEach((bytes, i) => setTimeout(() => socket.write(bytes, 'latin1'), i * 20));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new RawHttpClient((server.address() as AddressInfo).port, '127.0.0.1');
});
afterAll(async () => {
  client.close();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string): Promise<number> =>
  new Promise((resolve) => client.send(RawHttpClient.get(path, '127.0.0.1', { 'x-tollgate-key': 'k' }), resolve));

describe('RawHttpClient', () => {
  it.each([
    ['/length', 200],
    ['/chunked', 200],
    ['/chunked-plain', 201],
    ['/no-content', 204],
    ['/unframed', 0],
    ['/too-long', 0],
  ])('when %s is answered, then the request reports %d', async (path, status) => {
    expect(await get(path)).toBe(status);
  });

  it('when responses are read to their end, then the next requests reuse the connection and are framed right', async () => {
    const before = connections;
    const statuses: number[] = [];
    for (const path of ['/chunked', '/length', '/no-content', '/length']) statuses.push(await get(path));
    expect(statuses).toEqual([200, 200, 204, 200]);
    // At most one connection is opened (none if an earlier one was idle): the rest reuse it.
    expect(connections - before).toBeLessThanOrEqual(1);
  });
});

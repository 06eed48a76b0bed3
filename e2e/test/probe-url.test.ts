import { createServer as createHttpServer } from 'node:http';
import { createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { freePort } from '@tollgate/envelope/test/processes';
import { probeUrl } from '../../scripts/stack/probe-url';

// probeUrl against real local sockets: what `npm start` says about an upstream that does not answer.
const servers: Server[] = [];
const sockets: Socket[] = [];

async function listen(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('probeUrl', () => {
  it('when the host answers, whatever the status, then it is reachable', async () => {
    const url = await listen(createHttpServer((_req, res) => res.writeHead(404).end('not here')));
    await expect(probeUrl(`${url}/some/rpc?x=1`, 1_000)).resolves.toBeUndefined();
  });

  it('when nothing listens on the port, then "connection refused"', async () => {
    await expect(probeUrl(`http://127.0.0.1:${await freePort()}/rpc`, 1_000)).resolves.toBe('connection refused');
  });

  it('when the host accepts the connection but never answers, then it gives up at the bound and says so', async () => {
    const url = await listen(createServer((socket) => sockets.push(socket)));
    const started = Date.now();
    await expect(probeUrl(url, 300)).resolves.toBe('no answer within 0.3 s');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('when the URL is not a URL, then it says so instead of throwing', async () => {
    await expect(probeUrl('coins.llama.fi', 300)).resolves.toBe('not a URL: coins.llama.fi');
  });
});

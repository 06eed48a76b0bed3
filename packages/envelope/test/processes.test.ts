import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { Server } from 'node:net';
import { freePort, freePorts, startMain } from './processes';

// A port for a child process must not be one the kernel hands out meanwhile to another test's
// listen(0) or to an outgoing connection (the token service's process test once reached another
// test's server on its port, ECONNRESET): so it comes from below the ephemeral range.
const ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
const listen = (port: number): Promise<Server> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

describe('ports for child processes', () => {
  it('when 50 are picked, then each is below the ephemeral range with its cluster bus port (+10000), and distinct', async () => {
    const ports = await freePorts(50);
    expect(new Set(ports).size).toBe(50);
    for (const port of ports) expect(port + 10_000).toBeLessThan(ephemeralLow);
  });

  it('when the next port of the block is taken, then it is passed over', async () => {
    const first = await freePort();
    const held = await listen(first + 1);
    try {
      const second = await freePort();
      expect(second).not.toBe(first + 1);
      expect(second).not.toBe(first);
    } finally {
      await close(held);
    }
  });

  it('when a port is asked for by number, then that one is given if free, and EADDRINUSE if not', async () => {
    const port = await freePort();
    expect(await freePort(port)).toBe(port);
    const held = await listen(port);
    try {
      await expect(freePort(port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await close(held);
    }
  });
});

describe('a started main process', () => {
  it('when it exits while a child of its own still writes to its pipes, then its exit waits for those last words', async () => {
    // 'exit' comes before the pipes are read; a test reading output() right after it missed the reason.
    const lastWords = "require('node:child_process').spawn('sh', ['-c', 'sleep 0.2; echo last words'], { stdio: ['ignore', 'inherit', 'inherit'] }).unref(); process.exit(1)";
    const main = startMain(process.cwd(), {}, 'inline', ['-e', lastWords]);
    expect(await main.exited).toBe(1);
    expect(main.output()).toContain('last words');
  });
});

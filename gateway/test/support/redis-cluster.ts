import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Redis from 'ioredis';
import { freePort } from '@tollgate/envelope/test/processes';
import { allStarted } from './all-started';
import { disconnectRedis } from '../../src/data/redis/close-redis';
import { redisReady } from './redis-server';

const HOST = '127.0.0.1';
/** A node's cluster bus listens on its port + 10000 (fixed by Redis), so port 0 cannot be used. */
const BUS_OFFSET = 10_000;

/** One node of the cluster as `CLUSTER NODES` describes it now. */
export interface ClusterNodeInfo {
  id: string;
  port: number;
  role: 'master' | 'replica';
  /** The master's id, for a replica. */
  masterId?: string;
  /** Whether the others count it failed (`fail` or `fail?`). */
  failed: boolean;
  /** Whether its process runs: a node just killed is not counted failed by the others for a while. */
  running: boolean;
  /** Slot ranges served, `[from, to]` inclusive (masters only). */
  slots: [number, number][];
}

/** A throw-away Redis Cluster of real `redis-server` processes on loopback. */
export interface RedisCluster {
  /** Every node's port, masters and replicas, in start order. */
  ports: number[];
  /** `host:port,…` of every node, as `REDIS_CLUSTER_NODES` takes it. */
  seeds: string;
  /** A plain connection to one node (closed by `stop()`). */
  node(port: number): Redis;
  /** `CLUSTER NODES`, as seen by a live node. */
  describe(): Promise<ClusterNodeInfo[]>;
  /** The port of the master serving `slot` now. */
  masterOf(slot: number): Promise<number>;
  /** The slot of a key (`CLUSTER KEYSLOT`). */
  slotOf(key: string): Promise<number>;
  /** SIGKILL one node: what a crashed host leaves behind. */
  kill(port: number): Promise<void>;
  /** Resolves once every live node says `cluster_state:ok` and agrees on who serves every slot. */
  settled(timeoutMs?: number): Promise<void>;
  /** Waits until every master's writes so far have reached its replicas (`WAIT`). */
  replicated(): Promise<void>;
  stop(): Promise<void>;
}

/** Options of {@link startRedisCluster}. */
export interface StartClusterOptions {
  masters?: number;
  replicasPerMaster?: number;
  /** `cluster-node-timeout`: how long a silent master is waited for before its replica takes over. */
  nodeTimeoutMs?: number;
  /** Picks each node's port ({@link freeClusterPort} by default; a test of the harness hands out taken ones). */
  pickPort?: (taken: ReadonlySet<number>) => Promise<number>;
}

/** Attempts at starting one node, each on a newly picked port when the last one's was taken. */
const START_ATTEMPTS = 5;

/** A port that is free now, with its bus port (+10000) free too: bind both, read, close. */
export async function freeClusterPort(taken: ReadonlySet<number>): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = await freePort(0);
    if (port + BUS_OFFSET > 65_535 || taken.has(port) || taken.has(port + BUS_OFFSET)) continue;
    if (await freePort(port + BUS_OFFSET).then(() => true, () => false)) return port;
  }
  throw new Error('no free port pair (port, port + 10000) found in 100 attempts');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function run(file: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { timeout: 30_000 }, (err, stdout, stderr) => (err ? reject(new Error(`${file} ${args.join(' ')}: ${err.message}\n${stdout}${stderr}`)) : resolve(stdout)));
  });
}

interface NodeProcess {
  child: ChildProcess;
  exited: Promise<void>;
}

/**
 * Starts one cluster-enabled `redis-server` (AOF on) and resolves once it accepts connections.
 * `started` gets the process as soon as it is spawned, so a cluster whose start fails part-way
 * still stops it; one that does not come up in time is killed here.
 */
async function startNode(binary: string, port: number, dir: string, nodeTimeoutMs: number, started: (p: NodeProcess) => void): Promise<NodeProcess> {
  mkdirSync(dir, { recursive: true });
  const child = spawn(
    binary,
    [
      '--port', String(port), '--bind', HOST, '--dir', dir,
      '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', String(nodeTimeoutMs),
      // The other masters keep serving their slots while one is failing over.
      '--cluster-require-full-coverage', 'no',
      '--appendonly', 'yes', '--save', '',
      // A replica's first sync starts at once instead of waiting 5 s for more replicas.
      '--repl-diskless-sync-delay', '0',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  started({ child, exited });
  await redisReady(child, `redis-server :${port}`);
  return { child, exited };
}

/** Parses `CLUSTER NODES`. */
function parseNodes(text: string): ClusterNodeInfo[] {
  return text
    .trim()
    .split('\n')
    .map((line) => {
      const [id, address, flags, master, , , , , ...slots] = line.split(' ');
      const port = Number(/:(\d+)@/.exec(address!)![1]);
      const flagList = flags!.split(',');
      const info: ClusterNodeInfo = {
        id: id!,
        port,
        role: flagList.includes('master') ? 'master' : 'replica',
        failed: flagList.includes('fail') || flagList.includes('fail?'),
        running: true,
        slots: slots.filter((s) => !s.startsWith('[')).map((s) => {
          const [from, to] = s.split('-').map(Number);
          return [from!, to ?? from!];
        }),
      };
      if (master && master !== '-') info.masterId = master;
      return info;
    });
}

/**
 * Starts `masters × (1 + replicasPerMaster)` cluster-enabled `redis-server` processes from
 * Debian's package on free loopback ports, joins them with `redis-cli --cluster create`, and
 * resolves once every node reports `cluster_state:ok` and every replica is in sync.
 */
export async function startRedisCluster(options: StartClusterOptions = {}): Promise<RedisCluster> {
  const masters = options.masters ?? 3;
  const replicas = options.replicasPerMaster ?? 1;
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 1_000;
  const binary = existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';
  const cli = existsSync('/usr/bin/redis-cli') ? '/usr/bin/redis-cli' : 'redis-cli';
  const dir = mkdtempSync(path.join(tmpdir(), 'tollgate-cluster-'));
  const pickPort = options.pickPort ?? freeClusterPort;
  const taken = new Set<number>();
  const ports: number[] = [];
  const pick = async (): Promise<number> => {
    const port = await pickPort(taken);
    taken.add(port).add(port + BUS_OFFSET);
    return port;
  };
  for (let i = 0; i < masters * (1 + replicas); i++) ports.push(await pick());
  const processes = new Map<number, NodeProcess>();
  // Every process ever spawned, the failed ones included: stop() waits for each to be gone.
  const spawned: NodeProcess[] = [];
  const connections = new Map<number, Redis>();
  const stop = async (): Promise<void> => {
    for (const c of connections.values()) disconnectRedis(c);
    await Promise.all(
      spawned.map(async ({ child, exited }) => {
        child.kill('SIGCONT');
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  const node = (port: number): Redis => {
    let c = connections.get(port);
    if (!c) {
      c = new Redis({ host: HOST, port, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
      c.on('error', () => undefined);
      connections.set(port, c);
    }
    if (c.status === 'end') {
      connections.delete(port);
      return node(port);
    }
    return c;
  };
  const live = (): number[] => ports.filter((p) => processes.get(p)?.child.exitCode === null && processes.get(p)?.child.signalCode === null);
  const describe = async (): Promise<ClusterNodeInfo[]> => {
    const running = live();
    return parseNodes((await node(running[0]!).cluster('NODES')) as string).map((n) => ({ ...n, running: running.includes(n.port) }));
  };

  const cluster: RedisCluster = {
    ports,
    // Read when asked: a node started again on another port (above) changes it.
    get seeds() {
      return ports.map((p) => `${HOST}:${p}`).join(',');
    },
    node,
    describe,
    async masterOf(slot) {
      const owner = (await describe()).find((n) => n.role === 'master' && !n.failed && n.slots.some(([from, to]) => slot >= from && slot <= to));
      if (!owner) throw new Error(`no live master serves slot ${slot}`);
      return owner.port;
    },
    slotOf: async (key) => Number(await node(live()[0]!).cluster('KEYSLOT', key)),
    async kill(port) {
      const p = processes.get(port);
      if (!p) throw new Error(`no node on port ${port}`);
      p.child.kill('SIGKILL');
      await p.exited;
      const connection = connections.get(port);
      if (connection) disconnectRedis(connection);
    },
    async settled(timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      let last = '';
      while (Date.now() < deadline) {
        try {
          const views = await Promise.all(live().map(async (p) => ({ info: (await node(p).cluster('INFO')) as string, nodes: parseNodes((await node(p).cluster('NODES')) as string) })));
          const owners = views.map((v) =>
            v.nodes
              .filter((n) => n.role === 'master' && !n.failed && n.slots.length)
              .map((n) => `${n.port}:${n.slots.map((s) => s.join('-')).join(',')}`)
              .sort()
              .join(' '),
          );
          const served = views[0]!.nodes.filter((n) => n.role === 'master' && !n.failed).reduce((sum, n) => sum + n.slots.reduce((s, [from, to]) => s + to - from + 1, 0), 0);
          last = `${views.map((v) => /cluster_state:(\w+)/.exec(v.info)?.[1]).join(',')} / ${served} slots / ${new Set(owners).size} views`;
          if (views.every((v) => v.info.includes('cluster_state:ok')) && served === 16_384 && new Set(owners).size === 1) return;
        } catch (err) {
          last = (err as Error).message;
        }
        await sleep(50);
      }
      throw new Error(`the cluster did not settle within ${timeoutMs} ms: ${last}`);
    },
    async replicated() {
      const nodes = await describe();
      await Promise.all(
        nodes
          .filter((n) => n.role === 'master' && !n.failed && live().includes(n.port))
          .map(async (m) => {
            const want = nodes.filter((r) => r.masterId === m.id && !r.failed && live().includes(r.port)).length;
            if (want && Number(await node(m.port).wait(want, 5_000)) < want) throw new Error(`master :${m.port}: its replicas did not acknowledge within 5 s`);
          }),
      );
    },
    stop,
  };

  try {
    // A port found free may be taken before redis-server binds it (its bus port, +10000, is in
    // the range the kernel hands to outgoing connections): such a node is started on another.
    // Every node is waited for, failed or not, before a failure is thrown, so stop() sees them all.
    await allStarted(
      ports.map(async (_, i) => {
        for (let attempt = 1; ; attempt++) {
          const port = ports[i]!;
          try {
            processes.set(port, await startNode(binary, port, path.join(dir, String(port)), nodeTimeoutMs, (p) => spawned.push(p)));
            return;
          } catch (err) {
            if (attempt >= START_ATTEMPTS || !/Address already in use/i.test((err as Error).message)) throw err;
            ports[i] = await pick();
          }
        }
      }),
    );
    await run(cli, ['--cluster', 'create', ...ports.map((p) => `${HOST}:${p}`), '--cluster-replicas', String(replicas), '--cluster-yes']);
    await cluster.settled();
    // Every replica attached and in sync before a test relies on failover.
    const deadline = Date.now() + 20_000;
    for (;;) {
      const nodes = await describe();
      const synced = await Promise.all(nodes.filter((n) => n.role === 'replica').map(async (r) => ((await node(r.port).info('replication')) as string).includes('master_link_status:up')));
      if (nodes.filter((n) => n.role === 'replica').length === masters * replicas && synced.every(Boolean)) break;
      if (Date.now() > deadline) throw new Error('the replicas did not sync within 20 s');
      await sleep(50);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return cluster;
}

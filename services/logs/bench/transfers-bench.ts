/**
 * Benchmark (not a test). 10,000 ERC-20 Transfer logs in a local anvil:
 *  1. fetched through /v1/transfers pages (limit 1000) vs one viem getLogs call, for a dense and a
 *     spread layout; target ≤ 1.3× the direct time;
 *  2. eth_getLogs calls behind a provider capping spans at 1,000 blocks vs the minimum
 *     ceil(range / 1000); target ≤ 1.2×.
 * Run: flock /tmp/tollgate-bench.lock pnpm --filter @tollgate/logs bench
 */
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import { parseAbiItem, type Address } from 'viem';
import { bulkTransfersErc20, connect, deployErc20, mineBlocks, startAnvil, type Anvil, type Chain } from '../test/support/anvil.js';
import { startCappedProxy } from '../test/support/capped-rpc-proxy.js';
import { buildLogsApp } from '../test/support/logs-app.js';

const TRANSFERS = 10_000;
const RUNS = 5;
const CAP = 1000;
const TRANSFER_EVENT = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

interface Layout {
  name: string;
  /** Transfers per mined block, and empty blocks mined after each such block. */
  perBlock: number;
  gap: number;
}

const LAYOUTS: Layout[] = [
  { name: 'dense (250 transfers per block, 40 blocks)', perBlock: 250, gap: 0 },
  { name: 'spread (500 transfers every 1,000 blocks, ~20k blocks)', perBlock: 500, gap: 999 },
];

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

async function listen(rpcUrl: string): Promise<{ base: string; close: () => Promise<void> }> {
  const { app } = buildLogsApp({ rpcUrls: { ethereum: rpcUrl }, cacheTtlMs: 0 });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function fetchAllPages(base: string, token: Address, head: number): Promise<{ transfers: number; pages: number }> {
  let cursor: string | undefined;
  let transfers = 0;
  let pages = 0;
  do {
    const query = new URLSearchParams({ chain: 'ethereum', token, from_block: '0', to_block: String(head), limit: '1000', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${base}/v1/transfers?${query}`);
    const body = (await res.json()) as { data: { count: number; cursor: string | null }; message: string };
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${body.message}`);
    transfers += body.data.count;
    cursor = body.data.cursor ?? undefined;
    pages += 1;
  } while (cursor);
  return { transfers, pages };
}

// Mining empty blocks costs anvil ~1–10 ms each, growing with the chain: ~20k blocks is what a
// bench run can afford.
async function seed(anvil: Anvil, layout: Layout): Promise<{ anvil: Anvil; chain: Chain; token: Address; head: number }> {
  const chain = connect(anvil.url);
  const token = await deployErc20(chain);
  for (let sent = 0; sent < TRANSFERS; sent += layout.perBlock) {
    await bulkTransfersErc20(chain, token, layout.perBlock, layout.perBlock);
    if (layout.gap) await mineBlocks(anvil.url, layout.gap);
  }
  return { anvil, chain, token, head: Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 })) };
}

async function timeLayout(layout: Layout, seeded: { anvil: Anvil; chain: Chain; token: Address; head: number }): Promise<number> {
  const { anvil, chain, token, head } = seeded;
  const service = await listen(anvil.url);
  const direct: number[] = [];
  const paged: number[] = [];
  let pages = 0;
  let viaApi = 0;
  let viaViem = 0;
  for (let run = 0; run <= RUNS; run += 1) {
    let start = performance.now();
    const logs = await chain.publicClient.getLogs({ address: token, event: TRANSFER_EVENT, fromBlock: 0n, toBlock: BigInt(head) });
    const directMs = performance.now() - start;
    start = performance.now();
    const api = await fetchAllPages(service.base, token, head);
    const pagedMs = performance.now() - start;
    if (run === 0) continue; // warm-up
    direct.push(directMs);
    paged.push(pagedMs);
    pages = api.pages;
    viaApi = api.transfers;
    viaViem = logs.length;
  }
  await service.close();
  const ratio = median(paged) / median(direct);
  console.log(`\n[1] ${layout.name}: blocks 0..${head}`);
  console.log(`    viem getLogs direct : ${median(direct).toFixed(1)} ms median of ${RUNS} (${viaViem} logs, 1 call)`);
  console.log(`    /v1/transfers pages : ${median(paged).toFixed(1)} ms median of ${RUNS} (${viaApi} transfers, ${pages} pages of ≤1000)`);
  console.log(`    ratio               : ${ratio.toFixed(2)}× (target ≤ 1.30×) ${ratio <= 1.3 ? 'PASS' : 'MISS'}`);
  if (viaApi !== viaViem) throw new Error(`count mismatch: ${viaApi} via API, ${viaViem} direct`);
  return ratio;
}

async function countCalls(anvil: Anvil, token: Address, head: number): Promise<number> {
  const proxy = await startCappedProxy({ target: anvil.url, maxSpan: CAP, message: (_f, _t, max) => `Maximum allowed number of requested blocks is ${max}` });
  const service = await listen(proxy.url);
  try {
    const { transfers, pages } = await fetchAllPages(service.base, token, head);
    const minimum = Math.ceil((head + 1) / CAP);
    const ratio = proxy.counts.getLogs / minimum;
    console.log(`\n[2] provider cap ${CAP} blocks (thirdweb message), blocks 0..${head}, fresh service (nothing learned yet)`);
    console.log(`    transfers ${transfers} in ${pages} pages`);
    console.log(`    eth_getLogs calls   : ${proxy.counts.getLogs} (${proxy.counts.rejected} rejected), all JSON-RPC calls ${proxy.counts.total}`);
    console.log(`    minimum needed      : ${minimum} (ceil(${head + 1} / ${CAP}))`);
    console.log(`    ratio               : ${ratio.toFixed(2)}× (target ≤ 1.20×) ${ratio <= 1.2 ? 'PASS' : 'MISS'}`);
    return ratio;
  } finally {
    await service.close();
    await proxy.stop();
  }
}

async function main(): Promise<void> {
  console.log(`logs bench: ${TRANSFERS} Transfer logs, node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  for (const layout of LAYOUTS) {
    const anvil = await startAnvil({ chainId: 1, gasLimit: 1_000_000_000, pruneHistory: true });
    try {
      const seeded = await seed(anvil, layout);
      await timeLayout(layout, seeded);
      if (layout.gap) await countCalls(anvil, seeded.token, seeded.head);
    } finally {
      await anvil.stop();
    }
  }
  console.log(`\nload average after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

import { validateResponse } from '@tollgate/envelope';
import request from 'supertest';
import { pad, type Address } from 'viem';
import { LOGS_ROUTE, TRANSFERS_ROUTE } from '../../src/routes/page-route-docs.js';
import {
  approveErc20,
  bulkTransfersErc20,
  connect,
  deployErc20,
  deployErc721,
  DEV_ACCOUNTS,
  mintErc721,
  startAnvil,
  transferErc20,
  transferErc721,
  type Anvil,
  type Chain,
} from '../support/anvil.js';
import type { RpcLog } from '../../src/domain/rpc-log.js';
import { buildLogsApp, type LogsApp } from '../support/logs-app.js';

// A real anvil on a 2-core machine shared with other suites: hooks may take a few seconds.
jest.setTimeout(60_000);

const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const APPROVAL = '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925';
const [owner, alice, bob, carol] = DEV_ACCOUNTS as [Address, Address, Address, Address];

let anvil: Anvil;
let chain: Chain;
let erc20: Address;
let nft: Address;
let logsApp: LogsApp;

async function ethGetLogs(filter: Record<string, unknown>): Promise<RpcLog[]> {
  return (await chain.publicClient.request({ method: 'eth_getLogs', params: [{ fromBlock: '0x0', toBlock: 'latest', ...filter }] } as never)) as RpcLog[];
}

// The API's log record for a raw log, field by field.
function expected(log: RpcLog) {
  return {
    block_number: Number(log.blockNumber),
    block_hash: log.blockHash,
    block_timestamp: log.blockTimestamp ? Number(log.blockTimestamp) : null,
    transaction_hash: log.transactionHash,
    transaction_index: Number(log.transactionIndex),
    log_index: Number(log.logIndex),
    address: log.address,
    topics: log.topics,
    data: log.data,
  };
}

async function getLogs(query: Record<string, string | number>) {
  const res = await request(logsApp.app).get('/v1/logs').query({ chain: 'ethereum', from_block: 0, ...query });
  expect(validateResponse(LOGS_ROUTE, res.status, res.body)).toEqual([]);
  return res;
}

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 1 });
  chain = connect(anvil.url);
  erc20 = await deployErc20(chain);
  nft = await deployErc721(chain);
  await transferErc20(chain, erc20, alice, 1000n);
  await transferErc20(chain, erc20, bob, 2000n);
  await approveErc20(chain, erc20, carol, 5000n);
  await mintErc721(chain, nft, owner);
  await mintErc721(chain, nft, alice);
  await transferErc721(chain, nft, owner, bob, 0n);
  await bulkTransfersErc20(chain, erc20, 30, 7);
  logsApp = buildLogsApp({ rpcUrls: { ethereum: anvil.url } });
});

afterAll(async () => {
  await anvil?.stop();
});

describe('GET /v1/logs against anvil', () => {
  it('when asked for every log of both contracts, then the answer equals eth_getLogs field by field', async () => {
    const res = await getLogs({ address: `${erc20},${nft}`, to_block: 'latest', limit: 1000 });
    const direct = await ethGetLogs({ address: [erc20, nft] });
    expect(res.status).toBe(200);
    expect(direct.length).toBeGreaterThan(35);
    expect(res.body.data.logs.map(({ decoded: _d, ...rest }: Record<string, unknown>) => rest)).toEqual(direct.map(expected));
    expect(res.body.data.cursor).toBeNull();
    expect(res.body.data.to_block).toBe(Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 })));
  });

  it('when logs are ERC-20 and ERC-721 Transfers and an Approval, then each is decoded with its own layout', async () => {
    const res = await getLogs({ address: `${erc20},${nft}`, to_block: 20 });
    const decoded = res.body.data.logs.map((l: { decoded: unknown }) => l.decoded);
    expect(decoded).toContainEqual({
      event: 'Transfer',
      signature: 'Transfer(address,address,uint256)',
      args: { from: owner, to: alice, value: '1000' },
    });
    expect(decoded).toContainEqual({ event: 'Approval', signature: 'Approval(address,address,uint256)', args: { owner, spender: carol, value: '5000' } });
    expect(decoded).toContainEqual({ event: 'Transfer', signature: 'Transfer(address,address,uint256)', args: { from: owner, to: bob, tokenId: '0' } });
  });

  it.each([
    ['by name', { event: 'Transfer' }, { topics: [TRANSFER] }],
    ['by name in any case', { event: 'approval' }, { topics: [APPROVAL] }],
    ['by full signature', { event: 'Approval(address indexed owner,address indexed spender,uint256 value)' }, { topics: [APPROVAL] }],
    ['by raw topic0', { topic0: TRANSFER }, { topics: [TRANSFER] }],
    ['by topic0 OR-list', { topic0: `${TRANSFER},${APPROVAL}` }, { topics: [[TRANSFER, APPROVAL]] }],
    ['by recipient in topic2 given as an address', { topic0: TRANSFER, topic2: bob }, { topics: [TRANSFER, null, pad(bob)] }],
    ['by event and a topic1 hash', { event: 'Transfer', topic1: pad(owner) }, { topics: [TRANSFER, pad(owner)] }],
  ])('when filtering %s, then the answer equals eth_getLogs with the same topics', async (_name, query, filter) => {
    const res = await getLogs({ address: `${erc20},${nft}`, limit: 1000, ...query });
    const direct = await ethGetLogs({ address: [erc20, nft], ...filter });
    expect(res.status).toBe(200);
    expect(direct.length).toBeGreaterThan(0);
    expect(res.body.data.logs.map(({ decoded: _d, ...rest }: Record<string, unknown>) => rest)).toEqual(direct.map(expected));
  });

  it('when a custom signature is given, then logs are decoded with its argument names', async () => {
    const res = await getLogs({ address: erc20, event: 'Transfer(address indexed sender,address indexed receiver,uint256 amount)', to_block: 10 });
    expect(res.body.data.logs[0].decoded).toEqual({
      event: 'Transfer',
      signature: 'Transfer(address,address,uint256)',
      args: { sender: '0x0000000000000000000000000000000000000000', receiver: owner, amount: '1000000000000000000000000' },
    });
  });

  it('when paging with a small limit, then every log comes exactly once and in order', async () => {
    const direct = await ethGetLogs({ address: [erc20, nft] });
    const seen: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await getLogs({ address: `${erc20},${nft}`, limit: 4, ...(cursor ? { cursor } : {}) });
      expect(res.status).toBe(200);
      expect(res.body.data.count).toBeLessThanOrEqual(4);
      seen.push(...res.body.data.logs.map(({ decoded: _d, ...rest }: Record<string, unknown>) => rest));
      cursor = res.body.data.cursor ?? undefined;
      pages += 1;
    } while (cursor && pages < 100);
    expect(cursor).toBeUndefined();
    expect(seen).toEqual(direct.map(expected));
  });

  it('when tags are used, then they are resolved to numbers in the answer', async () => {
    const head = Number(await chain.publicClient.getBlockNumber({ cacheTime: 0 }));
    const res = await getLogs({ address: erc20, from_block: 'latest', to_block: 'latest' });
    expect(res.body.data).toMatchObject({ from_block: head, to_block: head });
    const ahead = await getLogs({ address: erc20, from_block: head - 1, to_block: head + 1000 });
    expect(ahead.body.data.to_block).toBe(head);
  });
});

describe('GET /v1/transfers against anvil', () => {
  async function getTransfers(query: Record<string, string | number>) {
    const res = await request(logsApp.app).get('/v1/transfers').query({ chain: 'ethereum', from_block: 0, limit: 1000, ...query });
    expect(validateResponse(TRANSFERS_ROUTE, res.status, res.body)).toEqual([]);
    return res;
  }

  it('when both contracts are asked, then only ERC-20 Transfers come back, decoded', async () => {
    const res = await getTransfers({ token: `${erc20},${nft}` });
    const direct = (await ethGetLogs({ address: erc20, topics: [TRANSFER] })).filter((l) => l.topics.length === 3);
    expect(res.status).toBe(200);
    expect(res.body.data.transfers).toHaveLength(direct.length);
    expect(res.body.data.transfers.every((t: { token: string }) => t.token === erc20.toLowerCase())).toBe(true);
    expect(res.body.data.transfers[1]).toEqual({
      token: erc20.toLowerCase(),
      from: owner.toLowerCase(),
      to: alice.toLowerCase(),
      value: '1000',
      block_number: Number(direct[1]?.blockNumber),
      block_hash: direct[1]?.blockHash,
      block_timestamp: Number(direct[1]?.blockTimestamp),
      transaction_hash: direct[1]?.transactionHash,
      log_index: Number(direct[1]?.logIndex),
    });
  });

  it('when filtered by sender and recipient, then the topics select them', async () => {
    const toBob = await getTransfers({ token: erc20, to: bob });
    const direct = await ethGetLogs({ address: erc20, topics: [TRANSFER, null, pad(bob)] });
    expect(toBob.body.data.transfers.map((t: { transaction_hash: string }) => t.transaction_hash)).toEqual(direct.map((l) => l.transactionHash));
    const fromOwnerToAlice = await getTransfers({ token: erc20, from: owner, to: alice });
    expect(fromOwnerToAlice.body.data.transfers.every((t: { from: string; to: string }) => t.from === owner.toLowerCase() && t.to === alice.toLowerCase())).toBe(true);
    expect(fromOwnerToAlice.body.data.count).toBeGreaterThan(1);
  });

  it('when paging transfers, then pages cover every ERC-20 transfer once', async () => {
    const all = (await getTransfers({ token: `${erc20},${nft}` })).body.data.transfers;
    const seen: unknown[] = [];
    let cursor: string | undefined;
    do {
      const res = await getTransfers({ token: `${erc20},${nft}`, limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...res.body.data.transfers);
      cursor = res.body.data.cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(all);
  });
});

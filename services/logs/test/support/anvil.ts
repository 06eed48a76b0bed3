/**
 * Starts a throw-away anvil (from the `@foundry-rs/anvil` npm package) and deploys real
 * OpenZeppelin 4.9.6 contracts on it. No test-framework imports: the offline demo, the
 * end-to-end test and the benchmark reuse this module.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { freePort } from '@tollgate/envelope/test/processes';
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  parseUnits,
  toEventSelector,
  type Abi,
  type Address,
  type Hash,
  type Hex,
  type PublicClient,
  type WalletClient,
} from 'viem';

const requireHere = createRequire(import.meta.url);

/** The first funded dev account anvil unlocks (hardhat/anvil test mnemonic). */
export const DEV_ACCOUNTS: readonly Address[] = [
  '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC',
  '0x90F79bf6EB2c4f870365E785982E1f101E93b906',
];

/** A running anvil and how to stop it. */
export interface Anvil {
  url: string;
  port: number;
  stop: () => Promise<void>;
}

/** Options of {@link startAnvil}. */
export interface StartAnvilOptions {
  chainId?: number;
  port?: number;
  /** Block gas limit; raise it to pack many transactions into one block. */
  gasLimit?: number;
  /** Keep only recent states in memory (`--prune-history`): mining many empty blocks gets fast. */
  pruneHistory?: boolean;
  /** The address to listen on: loopback by default (0.0.0.0 in the demo's container). */
  host?: string;
}

/** The anvil binary shipped in the platform package next to `@foundry-rs/anvil`. */
export function anvilBinary(): string {
  const wrapper = path.dirname(requireHere.resolve('@foundry-rs/anvil/package.json'));
  const platform = `@foundry-rs/anvil-${process.platform}-${process.arch === 'x64' ? 'amd64' : process.arch}`;
  try {
    const pkg = requireHere.resolve(`${platform}/package.json`, { paths: [wrapper] });
    return path.join(path.dirname(pkg), 'bin', 'anvil');
  } catch (cause) {
    throw new Error(`anvil binary not found (${platform}); run: pnpm install`, { cause });
  }
}

async function waitForRpc(url: string, exited: () => string | undefined): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const failure = exited();
    if (failure) throw new Error(failure);
    try {
      const res = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (res.ok) return;
    } catch {
      // Not listening yet; poll again.
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`anvil did not answer at ${url} within 15 s`);
}

/** Starts anvil on a free loopback port (chain id 1 by default, standing in for Ethereum). */
export async function startAnvil(options: StartAnvilOptions = {}): Promise<Anvil> {
  const port = options.port ?? (await freePort());
  const args = ['--host', options.host ?? '127.0.0.1', '--port', String(port), '--chain-id', String(options.chainId ?? 1), '--silent'];
  if (options.gasLimit) args.push('--gas-limit', String(options.gasLimit));
  if (options.pruneHistory) args.push('--prune-history');
  const child = spawn(anvilBinary(), args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  let exit: string | undefined;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      exit = `anvil exited (${code ?? signal}): ${stderr.trim()}`;
      resolve();
    });
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async (): Promise<void> => {
    if (exit === undefined) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  try {
    await waitForRpc(url, () => exit);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, stop };
}

/** viem clients for an anvil, sending as an unlocked dev account. */
export interface Chain {
  url: string;
  publicClient: PublicClient;
  wallet: WalletClient;
  account: Address;
}

/** Clients for `url`, sending from `account` (dev account 0 by default). */
export function connect(url: string, account: Address = DEV_ACCOUNTS[0] as Address): Chain {
  const transport = http(url, { retryCount: 0 });
  // No block-number cache: viem keeps the last head it read for `cacheTime` (4 s by default), and
  // waitForTransactionReceipt reads one whenever a receipt is not there on the first look, as
  // happens under CPU load since anvil mines in a background task after eth_sendTransaction
  // returns. A head read right after seeding then returned the block of the deployment.
  return { url, account, publicClient: createPublicClient({ transport, cacheTime: 0 }), wallet: createWalletClient({ transport, account }) };
}

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

function artifact(name: string): Artifact {
  return requireHere(`@openzeppelin/contracts/build/contracts/${name}.json`) as Artifact;
}

/** ABI of OpenZeppelin's ERC20PresetFixedSupply. */
export const ERC20_ABI = artifact('ERC20PresetFixedSupply').abi;
/** ABI of OpenZeppelin's ERC721PresetMinterPauserAutoId. */
export const ERC721_ABI = artifact('ERC721PresetMinterPauserAutoId').abi;

async function deploy(chain: Chain, name: string, args: unknown[]): Promise<Address> {
  const { abi, bytecode } = artifact(name);
  const hash = await chain.wallet.deployContract({ abi, bytecode, args, account: chain.account, chain: null });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error(`${name} deployment created no contract`);
  return receipt.contractAddress;
}

/** Deploys ERC20PresetFixedSupply minting `supply` whole tokens (18 decimals) to the sender. */
export function deployErc20(chain: Chain, options: { name?: string; symbol?: string; supply?: string } = {}): Promise<Address> {
  const supply = parseUnits(options.supply ?? '1000000', 18);
  return deploy(chain, 'ERC20PresetFixedSupply', [options.name ?? 'Test Token', options.symbol ?? 'TST', supply, chain.account]);
}

/** Deploys ERC721PresetMinterPauserAutoId with the sender as minter. */
export function deployErc721(chain: Chain, options: { name?: string; symbol?: string } = {}): Promise<Address> {
  return deploy(chain, 'ERC721PresetMinterPauserAutoId', [options.name ?? 'Test NFT', options.symbol ?? 'NFT', 'https://example.test/']);
}

async function send(chain: Chain, to: Address, abi: Abi, functionName: string, args: unknown[]): Promise<Hash> {
  const hash = await chain.wallet.writeContract({ address: to, abi, functionName, args, account: chain.account, chain: null });
  const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`${functionName} reverted in ${hash}`);
  return hash;
}

/** ERC-20 `transfer(to, amount)` from the chain's account (amount in base units). */
export function transferErc20(chain: Chain, token: Address, to: Address, amount: bigint): Promise<Hash> {
  return send(chain, token, ERC20_ABI, 'transfer', [to, amount]);
}

/** ERC-20 `approve(spender, amount)` from the chain's account. */
export function approveErc20(chain: Chain, token: Address, spender: Address, amount: bigint): Promise<Hash> {
  return send(chain, token, ERC20_ABI, 'approve', [spender, amount]);
}

/** ERC-721 `mint(to)`; token ids count up from 0. */
export function mintErc721(chain: Chain, nft: Address, to: Address): Promise<Hash> {
  return send(chain, nft, ERC721_ABI, 'mint', [to]);
}

/** ERC-721 `transferFrom(from, to, tokenId)` sent by the chain's account. */
export function transferErc721(chain: Chain, nft: Address, from: Address, to: Address, tokenId: bigint): Promise<Hash> {
  return send(chain, nft, ERC721_ABI, 'transferFrom', [from, to, tokenId]);
}

interface RpcCall {
  jsonrpc: '2.0';
  id: number;
  method: string;
  params: unknown[];
}

interface RpcReply {
  id?: unknown;
  result?: unknown;
  error?: { code?: number; message: string };
}

const rpcCall = (id: number, method: string, params: unknown[]): RpcCall => ({ jsonrpc: '2.0', id, method, params });

const listed = (items: string[]): string => (items.length > 5 ? `${items.slice(0, 5).join('; ')}; and ${items.length - 5} more` : items.join('; '));

/**
 * Posts `calls` as one JSON-RPC batch and returns their results in order; throws naming every
 * call that was refused or left without an answer (`describe` names a call in that message).
 */
async function rpcBatch(url: string, calls: RpcCall[], describe: (call: RpcCall) => string = (call) => call.method): Promise<unknown[]> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(calls) });
  const text = await res.text();
  if (!res.ok) throw new Error(`anvil answered HTTP ${res.status} to ${calls.map(describe).join(', ')}: ${text.slice(0, 300)}`);
  const json = JSON.parse(text) as RpcReply | RpcReply[];
  // A batch anvil could not read at all comes back as one error instead of a list.
  if (!Array.isArray(json)) throw new Error(`anvil refused the batch ${calls.map(describe).join(', ')}: ${json.error?.message ?? text.slice(0, 300)}`);
  const replies = new Map(json.map((reply) => [reply.id, reply]));
  const refused = calls.flatMap((call) => {
    const reply = replies.get(call.id);
    if (!reply) return [`${describe(call)}: no answer`];
    return reply.error ? [`${describe(call)}: ${reply.error.message}`] : [];
  });
  if (refused.length > 0) throw new Error(`anvil refused ${refused.length} of ${calls.length} calls: ${listed(refused)}`);
  return calls.map((call) => replies.get(call.id)?.result);
}

async function rpc(url: string, method: string, params: unknown[]): Promise<unknown> {
  const [result] = await rpcBatch(url, [rpcCall(1, method, params)]);
  return result;
}

/** Mines `count` empty blocks at once (`anvil_mine`). */
export async function mineBlocks(url: string, count: number): Promise<void> {
  await rpc(url, 'anvil_mine', [`0x${count.toString(16)}`]);
}

const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)');
const TRANSFER_GAS = 100_000;

interface RawReceipt {
  status: Hex;
  blockNumber: Hex;
  logs: { address: Address; topics: Hex[] }[];
}

/** Throws unless every transfer in `hashes` is in one mined block, succeeded and logged its Transfer. */
async function expectMined(chain: Chain, token: Address, nonces: number[], hashes: Hash[]): Promise<void> {
  const receipts = (await rpcBatch(
    chain.url,
    hashes.map((hash, i) => rpcCall(i, 'eth_getTransactionReceipt', [hash])),
  )) as (RawReceipt | null)[];
  const block = receipts.find((r) => r)?.blockNumber;
  const failed = receipts.flatMap((receipt, i) => {
    const name = `nonce ${nonces[i]} (${hashes[i]})`;
    if (!receipt) return [`${name} is in no block`];
    if (receipt.status !== '0x1') return [`${name} reverted`];
    if (receipt.blockNumber !== block) return [`${name} is in block ${Number(receipt.blockNumber)}, not ${Number(block)}`];
    const logged = receipt.logs.some((log) => log.address.toLowerCase() === token.toLowerCase() && log.topics[0] === TRANSFER_TOPIC);
    return logged ? [] : [`${name} logged no Transfer`];
  });
  if (failed.length === 0) return;
  const pool = (await rpc(chain.url, 'txpool_status', [])) as { pending: Hex; queued: Hex };
  throw new Error(
    `bulkTransfersErc20: evm_mine did not mine ${failed.length} of ${hashes.length} transfers as sent: ${listed(failed)}. ` +
      `anvil's pool still holds ${Number(pool.pending)} ready and ${Number(pool.queued)} queued transactions ` +
      `(anvil leaves transfers beyond the block gas limit there: raise startAnvil's gasLimit or lower perBlock).`,
  );
}

/**
 * Sends `count` ERC-20 transfers of 1 base unit to rotating dev accounts, `perBlock` per mined
 * block, in JSON-RPC batches with automining off: thousands of logs in seconds. Throws if anvil
 * refuses any of them or a block does not hold every transfer sent for it.
 */
export async function bulkTransfersErc20(chain: Chain, token: Address, count: number, perBlock: number): Promise<void> {
  await rpc(chain.url, 'evm_setAutomine', [false]);
  try {
    // Explicit nonces: a batch is handled concurrently, so the node cannot number them itself.
    const first = await chain.publicClient.getTransactionCount({ address: chain.account, blockTag: 'pending' });
    for (let sent = 0; sent < count; sent += perBlock) {
      const nonces = Array.from({ length: Math.min(perBlock, count - sent) }, (_, i) => first + sent + i);
      const calls = nonces.map((nonce, i) =>
        rpcCall(i, 'eth_sendTransaction', [
          {
            from: chain.account,
            to: token,
            gas: `0x${TRANSFER_GAS.toString(16)}`,
            nonce: `0x${nonce.toString(16)}`,
            data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [DEV_ACCOUNTS[1 + ((nonce - first) % 3)], 1n] }),
          },
        ]),
      );
      const hashes = (await rpcBatch(chain.url, calls, (call) => `eth_sendTransaction of the transfer with nonce ${nonces[call.id]}`)) as Hash[];
      await rpc(chain.url, 'evm_mine', []);
      await expectMined(chain, token, nonces, hashes);
    }
  } finally {
    await rpc(chain.url, 'evm_setAutomine', [true]);
  }
}

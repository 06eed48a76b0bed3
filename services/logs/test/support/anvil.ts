/**
 * Starts a throw-away anvil (from the `@foundry-rs/anvil` npm package) and deploys real
 * OpenZeppelin 4.9.6 contracts on it. No test-framework imports: the offline demo, the
 * end-to-end test and the benchmark reuse this module.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  parseUnits,
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

/** A port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
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
  const args = ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(options.chainId ?? 1), '--silent'];
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
  return { url, account, publicClient: createPublicClient({ transport }), wallet: createWalletClient({ transport, account }) };
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

async function rpc(url: string, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as unknown;
  const replies = Array.isArray(json) ? json : [json];
  const failed = replies.find((r: { error?: { message: string } }) => r.error);
  if (failed) throw new Error(`anvil: ${(failed as { error: { message: string } }).error.message}`);
  return json;
}

/** Mines `count` empty blocks at once (`anvil_mine`). */
export async function mineBlocks(url: string, count: number): Promise<void> {
  await rpc(url, { jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [`0x${count.toString(16)}`] });
}

/**
 * Sends `count` ERC-20 transfers of 1 base unit to rotating dev accounts, `perBlock` per mined
 * block, in JSON-RPC batches with automining off: thousands of logs in seconds.
 */
export async function bulkTransfersErc20(chain: Chain, token: Address, count: number, perBlock: number): Promise<void> {
  await rpc(chain.url, { jsonrpc: '2.0', id: 1, method: 'evm_setAutomine', params: [false] });
  try {
    // Explicit nonces: a batch is handled concurrently, so the node cannot number them itself.
    const first = await chain.publicClient.getTransactionCount({ address: chain.account, blockTag: 'pending' });
    for (let sent = 0; sent < count; sent += perBlock) {
      const batch = Array.from({ length: Math.min(perBlock, count - sent) }, (_, i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'eth_sendTransaction',
        params: [
          {
            from: chain.account,
            to: token,
            gas: '0x186a0',
            nonce: `0x${(first + sent + i).toString(16)}`,
            data: encodeFunctionData({ abi: ERC20_ABI, functionName: 'transfer', args: [DEV_ACCOUNTS[1 + ((sent + i) % 3)], 1n] }),
          },
        ],
      }));
      await rpc(chain.url, batch);
      await rpc(chain.url, { jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] });
    }
  } finally {
    await rpc(chain.url, { jsonrpc: '2.0', id: 1, method: 'evm_setAutomine', params: [true] });
  }
}

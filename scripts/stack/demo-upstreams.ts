import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalIndexer } from '../../services/token/test/support/local-indexer';
import { startFileServer } from './file-server';

/** The local stand-ins the offline demo runs in place of the internet, and what they hold. */
export interface DemoUpstreams {
  env: { burger: Record<string, string>; token: Record<string, string>; logs: Record<string, string> };
  /** The demo ERC-20 and the block range its transfers are in. */
  erc20: { address: string; fromBlock: number; toBlock: number; transfers: number };
  stop: () => Promise<void>;
}

const DEMO_TRANSFERS = 12;

/** The repository's copy of the Big Mac full index (services/burger/dataset/SOURCE.md). */
export function bigMacCsvPath(root: string): string {
  return join(root, 'services', 'burger', 'dataset', 'big-mac-full-index.csv');
}

/**
 * What the copy is, in one line for burger's BURGER_SOURCE_LABEL, from its SOURCE.md: the demo's
 * answers then say they come from this snapshot, never from a live release.
 */
export function bigMacCopyLabel(root: string): string {
  const facts = readFileSync(join(root, 'services', 'burger', 'dataset', 'SOURCE.md'), 'utf8');
  const commit = /commit `([0-9a-f]{7})[0-9a-f]*`[^)]*committed (\d{4}-\d{2}-\d{2})/.exec(facts);
  const copied = /\*\*Copied:\*\* (\d{4}-\d{2}-\d{2})/.exec(facts);
  if (!commit || !copied) throw new Error('services/burger/dataset/SOURCE.md no longer says the commit (and its date) and the day of the copy');
  return `snapshot: the copy kept in the Tollgate repository (services/burger/dataset), of The Economist's commit ${commit[1]} (${commit[2]}), copied ${copied[1]}; not the live file`;
}

/** Where the stand-ins listen: free loopback ports by default; fixed ports on all addresses in the demo's container. */
export interface DemoUpstreamsAt {
  host?: string;
  ports?: { csv: number; indexer: number; rpc: number };
}

/**
 * Starts a file server for the Big Mac CSV, the local price indexer and an anvil standing in for
 * Ethereum with a deployed ERC-20 and a few transfers; returns the env that points the services at them.
 */
export async function startDemoUpstreams(root: string, at: DemoUpstreamsAt = {}): Promise<DemoUpstreams> {
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s();
  };
  try {
    const csv = await startFileServer(bigMacCsvPath(root), 'big-mac-full-index.csv', { host: at.host, port: at.ports?.csv });
    stops.push(csv.close);
    const indexer = await startLocalIndexer({ host: at.host, port: at.ports?.indexer });
    stops.push(indexer.close);
    // The logs service is an ES module; a dynamic import loads it from this CommonJS script.
    const { DEV_ACCOUNTS, connect, deployErc20, startAnvil, transferErc20 } = await import('../../services/logs/test/support/anvil.js');
    const anvil = await startAnvil({ host: at.host, port: at.ports?.rpc });
    stops.push(anvil.stop);

    const chain = connect(anvil.url);
    const token = await deployErc20(chain, { name: 'Tollgate Demo Token', symbol: 'TGD' });
    const blocks: number[] = [];
    for (let i = 0; i < DEMO_TRANSFERS; i += 1) {
      const hash = await transferErc20(chain, token, DEV_ACCOUNTS[1 + (i % 3)]!, BigInt(i + 1) * 10n ** 18n);
      blocks.push(Number((await chain.publicClient.waitForTransactionReceipt({ hash })).blockNumber));
    }
    const fromBlock = Math.min(...blocks);
    const toBlock = Math.max(...blocks);
    return {
      env: {
        burger: { BURGER_DATA_URL: csv.url, BURGER_SOURCE_LABEL: bigMacCopyLabel(root) },
        token: { TOKEN_UPSTREAM_URL: indexer.url },
        logs: { LOGS_RPC_ETHEREUM: anvil.url },
      },
      erc20: { address: token, fromBlock, toBlock, transfers: DEMO_TRANSFERS },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

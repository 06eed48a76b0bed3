import type { Hex } from 'viem';
import type { RpcLog } from './rpc-log.js';
import { decodeLog, type DecodedEvent } from './decode-log.js';
import type { EventSpec } from './events.js';

/** A log as the API returns it: quantities as numbers, decoded where an event matches. */
export interface LogRecord {
  block_number: number;
  block_hash: Hex;
  block_timestamp: number | null;
  transaction_hash: Hex;
  transaction_index: number;
  log_index: number;
  address: Hex;
  topics: Hex[];
  data: Hex;
  decoded: DecodedEvent | null;
}

/** An ERC-20 Transfer as the API returns it; value in base units, decimal. */
export interface TransferRecord {
  token: Hex;
  from: Hex;
  to: Hex;
  value: string;
  block_number: number;
  block_hash: Hex;
  block_timestamp: number | null;
  transaction_hash: Hex;
  log_index: number;
}

/** ERC-20 and ERC-721 Transfer share this selector. */
export const TRANSFER_TOPIC: Hex = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';

const timestampOf = (log: RpcLog): number | null => (log.blockTimestamp ? Number(log.blockTimestamp) : null);

/** Shapes a raw log and decodes it with the candidates for its selector. */
export function toLogRecord(log: RpcLog, bySelector: ReadonlyMap<string, readonly EventSpec[]>): LogRecord {
  return {
    block_number: Number(log.blockNumber),
    block_hash: log.blockHash,
    block_timestamp: timestampOf(log),
    transaction_hash: log.transactionHash,
    transaction_index: Number(log.transactionIndex),
    log_index: Number(log.logIndex),
    address: log.address,
    topics: log.topics,
    data: log.data,
    decoded: decodeLog(log.topics, log.data, bySelector),
  };
}

/**
 * True for an ERC-20 Transfer: the selector, 3 topics and one 32-byte word of data. ERC-721
 * Transfers share the selector but index the token id (4 topics, no data).
 */
export function isErc20Transfer(log: RpcLog): boolean {
  return log.topics.length === 3 && log.topics[0]?.toLowerCase() === TRANSFER_TOPIC && log.data.length === 66;
}

const topicAddress = (topic: Hex): Hex => `0x${topic.slice(26).toLowerCase()}`;

/** Decodes an ERC-20 Transfer (checked with {@link isErc20Transfer}) without an ABI round trip. */
export function toTransferRecord(log: RpcLog): TransferRecord {
  return {
    token: log.address,
    from: topicAddress(log.topics[1] as Hex),
    to: topicAddress(log.topics[2] as Hex),
    value: BigInt(log.data).toString(),
    block_number: Number(log.blockNumber),
    block_hash: log.blockHash,
    block_timestamp: timestampOf(log),
    transaction_hash: log.transactionHash,
    log_index: Number(log.logIndex),
  };
}

import { pad, type Hex } from 'viem';
import { isErc20Transfer, toTransferRecord, TRANSFER_TOPIC } from './log-record.js';
import type { RpcLog } from './rpc-log.js';

const FROM = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const TO = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const base: RpcLog = {
  address: '0x5fbdb2315678afecb367f032d93f642f64180aa3',
  topics: [TRANSFER_TOPIC, pad(FROM), pad(TO)],
  data: pad('0x3e8'),
  blockNumber: '0x10',
  blockHash: `0x${'aa'.repeat(32)}`,
  transactionHash: `0x${'bb'.repeat(32)}`,
  transactionIndex: '0x0',
  logIndex: '0x2',
};

describe('isErc20Transfer', () => {
  it.each<[string, Partial<RpcLog>, boolean]>([
    ['an ERC-20 Transfer', {}, true],
    ['an ERC-721 Transfer (4 topics, no data)', { topics: [TRANSFER_TOPIC, pad(FROM), pad(TO), pad('0x1')], data: '0x' }, false],
    ['a non-indexed old-style Transfer', { topics: [TRANSFER_TOPIC], data: `0x${'00'.repeat(96)}` as Hex }, false],
    ['another event', { topics: [`0x${'11'.repeat(32)}`, pad(FROM), pad(TO)] }, false],
  ])('when the log is %s, then %s', (_name, change, expected) => {
    expect(isErc20Transfer({ ...base, ...change })).toBe(expected);
  });
});

describe('toTransferRecord', () => {
  it.each<[Hex | undefined, number | null]>([
    ['0x6553f100', 1700000000],
    [undefined, null],
  ])('when blockTimestamp is %s, then the record carries %s', (blockTimestamp, expected) => {
    expect(toTransferRecord({ ...base, ...(blockTimestamp ? { blockTimestamp } : {}) })).toEqual({
      token: base.address,
      from: FROM,
      to: TO,
      value: '1000',
      block_number: 16,
      block_hash: base.blockHash,
      block_timestamp: expected,
      transaction_hash: base.transactionHash,
      log_index: 2,
    });
  });
});

import { pad, type Hex } from 'viem';
import { decodeLog } from './decode-log.js';
import { eventSpec, indexBySelector, KNOWN_SPECS } from './events.js';

const known = indexBySelector(KNOWN_SPECS);
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const TO = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const word = (n: bigint): Hex => pad(`0x${n.toString(16)}`);

describe('decodeLog', () => {
  it.each<[string, Hex[], Hex, unknown]>([
    ['an ERC-20 Transfer', [TRANSFER, pad(FROM), pad(TO)], word(10n ** 30n), { event: 'Transfer', signature: 'Transfer(address,address,uint256)', args: { from: FROM, to: TO, value: '1000000000000000000000000000000' } }],
    ['an ERC-721 Transfer', [TRANSFER, pad(FROM), pad(TO), word(42n)], '0x', { event: 'Transfer', signature: 'Transfer(address,address,uint256)', args: { from: FROM, to: TO, tokenId: '42' } }],
    [
      'a V2 Sync',
      ['0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1'],
      `${word(5n)}${word(7n).slice(2)}` as Hex,
      { event: 'Sync', signature: 'Sync(uint112,uint112)', args: { reserve0: '5', reserve1: '7' } },
    ],
    [
      'a V3 Swap with negative amounts',
      ['0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67', pad(FROM), pad(TO)],
      `0x${'f'.repeat(63)}b${word(3n).slice(2)}${word(1n).slice(2)}${word(2n).slice(2)}${'f'.repeat(64)}` as Hex,
      {
        event: 'Swap',
        signature: 'Swap(address,address,int256,int256,uint160,uint128,int24)',
        args: { sender: FROM, recipient: TO, amount0: '-5', amount1: '3', sqrtPriceX96: '1', liquidity: '2', tick: '-1' },
      },
    ],
    ['an unknown selector', [`0x${'12'.repeat(32)}`], '0x', null],
    ['a Transfer with a short data word', [TRANSFER, pad(FROM), pad(TO)], '0x1234', null],
    ['a Transfer with only one topic', [TRANSFER], `${word(1n)}${word(2n).slice(2)}${word(3n).slice(2)}` as Hex, null],
    ['no topics (anonymous)', [], '0x', null],
  ])('when the log is %s, then it decodes to %j', (_name, topics, data, expected) => {
    expect(decodeLog(topics, data, known)).toEqual(expected);
  });

  it('when a caller signature comes first, then its names are used', () => {
    const custom = indexBySelector([eventSpec('Transfer(address indexed src, address indexed dst, uint256 wad)'), ...KNOWN_SPECS]);
    expect(decodeLog([TRANSFER, pad(FROM), pad(TO)], word(9n), custom)?.args).toEqual({ src: FROM, dst: TO, wad: '9' });
  });

  it('when a caller names arguments after inherited properties, then each is a plain key with its value', () => {
    const custom = indexBySelector([eventSpec('Transfer(address indexed __proto__, address indexed constructor, uint256 toString)')]);
    const args = decodeLog([TRANSFER, pad(FROM), pad(TO)], word(9n), custom)?.args;
    // A literal `{ __proto__: … }` would set a prototype, so the JSON text is compared.
    expect(JSON.stringify(args)).toBe(`{"__proto__":"${FROM}","constructor":"${TO}","toString":"9"}`);
  });

  it('when an ERC-1155 batch is decoded, then arrays hold strings', () => {
    const spec = KNOWN_SPECS.find((s) => s.item.name === 'TransferBatch');
    const data = `0x${['40', 'a0', '2', '1', '2', '2', '5', '6'].map((v) => v.padStart(64, '0')).join('')}` as Hex;
    const decoded = decodeLog([spec?.selector as Hex, pad(FROM), pad(FROM), pad(TO)], data, known);
    expect(decoded?.args).toEqual({ operator: FROM, from: FROM, to: TO, ids: ['1', '2'], values: ['5', '6'] });
  });
});

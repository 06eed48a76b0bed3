import { parseTokenList, upstreamKeysOf } from './token-id';

const chains = new Set(['ethereum', 'base', 'avax', 'solana', 'tron', 'starknet', 'sui']);
const USDC = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48';

describe('parseTokenList', () => {
  it.each([
    ['a checksummed EVM address', `ethereum:${USDC}`, 'ethereum', USDC.toLowerCase()],
    ['a capitalised chain name', `Base:${USDC}`, 'base', USDC.toLowerCase()],
    ['a CoinGecko slug in capitals', 'coingecko:USD-Coin', 'coingecko', 'usd-coin'],
    ['a Solana mint', 'solana:EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v', 'solana', 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'],
    ['a Tron address', 'tron:TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', 'tron', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'],
    ['a Starknet address', 'starknet:0x049D36570D4e46f48e99674bd3fcc84644DdD6b96F7C741B1562B82f9e004dC7', 'starknet', '0x049d36570d4e46f48e99674bd3fcc84644ddd6b96f7c741b1562b82f9e004dc7'],
    ['a Sui coin type', 'sui:0x2::sui::SUI', 'sui', '0x2::sui::SUI'],
  ])('when given %s, then it is normalised as the indexer expects', (_case, input, chain, address) => {
    expect(parseTokenList(input, chains)).toEqual({ tokens: [{ input, chain, address, key: `${chain}:${address}` }], invalid: [] });
  });

  it.each([
    ['no colon', 'ethereum', 'malformed', "'ethereum' is not <chain>:<address> or coingecko:<slug>"],
    ['nothing after the colon', 'ethereum:', 'malformed', "'ethereum:' is not <chain>:<address> or coingecko:<slug>"],
    ['a short EVM address', 'ethereum:0x1234', 'malformed', "'ethereum:0x1234' is malformed: a ethereum id is 0x followed by 40 hex digits"],
    ['a non-hex EVM address', `base:0x${'g'.repeat(40)}`, 'malformed', `'base:0x${'g'.repeat(40)}' is malformed: a base id is 0x followed by 40 hex digits`],
    ['a Solana mint with 0', 'solana:0OIl1111111111111111111111111111111', 'malformed', "'solana:0OIl1111111111111111111111111111111' is malformed: a solana id is a base58 mint of 32 to 44 characters"],
    ['an unknown chain', `fakechain:${USDC}`, 'unknown_chain', `'fakechain:${USDC}' names unknown chain 'fakechain'`],
    ['a chain the indexer spells otherwise', `Avalanche:${USDC}`, 'unknown_chain', `'Avalanche:${USDC}' names unknown chain 'Avalanche' (the indexer calls it avax)`],
    ['a slug with a space', 'coingecko:usd coin', 'malformed', "'coingecko:usd coin' is malformed: a coingecko id is a CoinGecko id such as usd-coin"],
  ])('when given %s, then it is rejected with the reason', (_case, input, kind, reason) => {
    expect(parseTokenList(input, chains)).toEqual({ tokens: [], invalid: [{ input, kind, reason }] });
  });

  it('when the list has an empty entry, then that entry is rejected', () => {
    expect(parseTokenList('coingecko:ethereum,,coingecko:bitcoin', chains).invalid).toEqual([
      { input: '', kind: 'malformed', reason: 'an entry is empty (two commas in a row, or a comma at an end)' },
    ]);
  });

  it('when a token repeats in one spelling and differs in another, then each spelling is kept once', () => {
    const { tokens } = parseTokenList(`ethereum:${USDC},ethereum:${USDC.toLowerCase()}, ethereum:${USDC}`, chains);
    expect(tokens.map((t) => t.input)).toEqual([`ethereum:${USDC}`, `ethereum:${USDC.toLowerCase()}`]);
    expect(upstreamKeysOf(tokens)).toEqual([`ethereum:${USDC.toLowerCase()}`]);
  });
});

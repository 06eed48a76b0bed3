import { indexBySelector, KNOWN_NAMES, KNOWN_SPECS, resolveEvent } from './events.js';

// Selectors from the reference, computed independently there.
const REFERENCE: [string, string][] = [
  ['Transfer(address,address,uint256)', '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'],
  ['Approval(address,address,uint256)', '0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925'],
  ['ApprovalForAll(address,address,bool)', '0x17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31'],
  ['TransferSingle(address,address,address,uint256,uint256)', '0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62'],
  ['TransferBatch(address,address,address,uint256[],uint256[])', '0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb'],
  ['Deposit(address,uint256)', '0xe1fffcc4923d04b559f4d29a8bfc6cda04eb5b0d3c460751c2402c5c5cc9109c'],
  ['Withdrawal(address,uint256)', '0x7fcf532c15f0a6db0bd6d0e038bea71d30d808c7d98cb3bf7268a95bf5081b65'],
  ['Swap(address,uint256,uint256,uint256,uint256,address)', '0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822'],
  ['Sync(uint112,uint112)', '0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1'],
  ['Mint(address,uint256,uint256)', '0x4c209b5fc8ad50758f13e2e1088ba56a560dff690a1c6fef26394f4c03821c4f'],
  ['Burn(address,uint256,uint256,address)', '0xdccd412f0b1252819cb1fd330b93224ca42612892bb3f4f789976e6d81936496'],
  ['PairCreated(address,address,address,uint256)', '0x0d3648bd0f6ba80134a33ba9275ac585d9d315f0ad8355cddefde31afa28d0e9'],
  ['Swap(address,address,int256,int256,uint160,uint128,int24)', '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67'],
  ['PoolCreated(address,address,uint24,int24,address)', '0x783cca1c0412dd0d695e784568c96da2e9c22ff989357a2e8b1d9b2b4e6b7118'],
  ['OwnershipTransferred(address,address)', '0x8be0079c531659141344cd1fd0a4f28419497f9722a3daafe3b4186f6b6457e0'],
  ['Upgraded(address)', '0xbc7cd75a20ee27fd9adebab32041f755214dbc6bffa90cc0225b39da2e5c2d3b'],
];

describe('known events', () => {
  it.each(REFERENCE)('when %s is in the table, then its selector is %s', (signature, selector) => {
    expect(KNOWN_SPECS.filter((s) => s.signature === signature).map((s) => s.selector)).toContain(selector);
  });

  it('when the table is read, then it covers the 16 reference selectors', () => {
    expect(new Set(KNOWN_SPECS.map((s) => s.selector)).size).toBe(16);
    expect(KNOWN_NAMES).toContain('PoolCreated');
  });
});

describe('resolveEvent', () => {
  it.each([
    ['Swap', 2, ['0xd78ad95fa46c994b6551d0da85fc275fe613ce37657fb8d5e3d130840159d822', '0xc42079f94a6350d7e6235f29174924f928cc2ac818eb64fed8004e115fbcca67']],
    ['transfer', 2, ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef']],
    ['Sync', 1, ['0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1']],
    ['Transfer(address indexed from,address indexed to,uint256 value)', 1, ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef']],
    ['event Sync(uint112 reserve0, uint112 reserve1)', 1, ['0x1c411e9a96e071241c2f21f7726b17ae89e3cab4c78be50e062b03a9fffbbad1']],
  ])('when event=%s, then %i spec(s) match', (value, count, selectors) => {
    const specs = resolveEvent(value);
    expect(specs).toHaveLength(count);
    expect(specs?.map((s) => s.selector)).toEqual(selectors);
  });

  it.each(['Teleport', 'Transfer(address indexed from', 'Foo(uint999 x)', ''])('when event=%j, then it is not resolved', (value) => {
    expect(resolveEvent(value)).toBeUndefined();
  });

  it('when specs share a selector, then the index keeps them in order', () => {
    const index = indexBySelector(KNOWN_SPECS);
    expect(index.get('0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef')?.map((s) => s.topicCount)).toEqual([3, 4]);
  });
});

import { parseAbiItem, toEventSelector, toEventSignature, type AbiEvent, type Hex } from 'viem';

/** A known event: a human-readable declaration and what it is. */
export interface KnownEvent {
  declaration: string;
  standard: string;
}

/**
 * The curated event table (the reference's 16 selectors). Transfer and Approval appear twice:
 * ERC-20 and ERC-721 share the selector and differ in how many arguments are indexed.
 */
export const KNOWN_EVENTS: readonly KnownEvent[] = Object.freeze([
  { declaration: 'Transfer(address indexed from, address indexed to, uint256 value)', standard: 'ERC-20' },
  { declaration: 'Transfer(address indexed from, address indexed to, uint256 indexed tokenId)', standard: 'ERC-721' },
  { declaration: 'Approval(address indexed owner, address indexed spender, uint256 value)', standard: 'ERC-20' },
  { declaration: 'Approval(address indexed owner, address indexed approved, uint256 indexed tokenId)', standard: 'ERC-721' },
  { declaration: 'ApprovalForAll(address indexed owner, address indexed operator, bool approved)', standard: 'ERC-721/1155' },
  { declaration: 'TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)', standard: 'ERC-1155' },
  { declaration: 'TransferBatch(address indexed operator, address indexed from, address indexed to, uint256[] ids, uint256[] values)', standard: 'ERC-1155' },
  { declaration: 'Deposit(address indexed dst, uint256 wad)', standard: 'WETH' },
  { declaration: 'Withdrawal(address indexed src, uint256 wad)', standard: 'WETH' },
  { declaration: 'Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)', standard: 'Uniswap V2' },
  { declaration: 'Sync(uint112 reserve0, uint112 reserve1)', standard: 'Uniswap V2' },
  { declaration: 'Mint(address indexed sender, uint256 amount0, uint256 amount1)', standard: 'Uniswap V2' },
  { declaration: 'Burn(address indexed sender, uint256 amount0, uint256 amount1, address indexed to)', standard: 'Uniswap V2' },
  { declaration: 'PairCreated(address indexed token0, address indexed token1, address pair, uint256)', standard: 'Uniswap V2' },
  { declaration: 'Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)', standard: 'Uniswap V3' },
  { declaration: 'PoolCreated(address indexed token0, address indexed token1, uint24 indexed fee, int24 tickSpacing, address pool)', standard: 'Uniswap V3' },
  { declaration: 'OwnershipTransferred(address indexed previousOwner, address indexed newOwner)', standard: 'Ownable' },
  { declaration: 'Upgraded(address indexed implementation)', standard: 'ERC-1967' },
]);

/** An ABI event with its selector and canonical signature, computed once. */
export interface EventSpec {
  item: AbiEvent;
  selector: Hex;
  signature: string;
  /** Topics a log of this event carries: the selector plus one per indexed input. */
  topicCount: number;
}

/** Parses a declaration such as `Transfer(address indexed from, …)` into an {@link EventSpec}. */
export function eventSpec(declaration: string): EventSpec {
  const item = parseAbiItem(`event ${declaration}`) as AbiEvent;
  if (item.type !== 'event') throw new Error(`${declaration} is not an event`);
  return {
    item,
    selector: toEventSelector(item),
    signature: toEventSignature(item),
    topicCount: 1 + item.inputs.filter((input) => input.indexed).length,
  };
}

/** The known events as specs, in table order. */
export const KNOWN_SPECS: readonly EventSpec[] = KNOWN_EVENTS.map((e) => eventSpec(e.declaration));

/** Distinct known event names, for messages and `/v1/meta`. */
export const KNOWN_NAMES: readonly string[] = [...new Set(KNOWN_SPECS.map((s) => s.item.name))];

/**
 * Resolves `event=`: a known name (any case; a shared name such as Swap gives every match) or a
 * full declaration. Returns undefined when it is neither.
 */
export function resolveEvent(value: string, known: readonly EventSpec[] = KNOWN_SPECS): EventSpec[] | undefined {
  const text = value.trim();
  if (text.includes('(')) {
    try {
      return [eventSpec(text.replace(/^event\s+/, ''))];
    } catch {
      return undefined;
    }
  }
  const matches = known.filter((s) => s.item.name.toLowerCase() === text.toLowerCase());
  return matches.length ? matches : undefined;
}

/** Groups specs by selector for decoding; earlier specs are tried first. */
export function indexBySelector(specs: readonly EventSpec[]): Map<string, EventSpec[]> {
  const index = new Map<string, EventSpec[]>();
  for (const spec of specs) index.set(spec.selector, [...(index.get(spec.selector) ?? []), spec]);
  return index;
}

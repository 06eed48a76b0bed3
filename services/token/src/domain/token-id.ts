import { ownEntry } from '@tollgate/envelope';
/** One token as the caller wrote it and as it is sent to the indexer. */
export interface TokenId {
  /** The caller's exact spelling; answers are keyed by it. */
  input: string;
  /** Chain name (lower case), or `coingecko` for a CoinGecko slug. */
  chain: string;
  /** Contract address, mint or slug, normalised as the indexer expects it. */
  address: string;
  /** `chain:address`, the id sent upstream. */
  key: string;
}

/** A token the caller wrote that cannot be used, with the reason. */
export interface InvalidToken {
  input: string;
  reason: string;
  kind: 'malformed' | 'unknown_chain';
}

/** Result of {@link parseTokenList}: usable tokens (one per distinct spelling) and rejected ones. */
export interface ParsedTokens {
  tokens: TokenId[];
  invalid: InvalidToken[];
}

/** The prefix of CoinGecko slugs; not a chain, so it is accepted without the chain list. */
export const COINGECKO_PREFIX = 'coingecko';

interface AddressRule {
  pattern: RegExp;
  /** What a valid address looks like, for the error message. */
  expected: string;
  /** Whether the indexer matches the address case-insensitively (then it is sent lower-case). */
  lowerCase: boolean;
}

const BASE58_MINT: AddressRule = { pattern: /^[1-9A-HJ-NP-Za-km-z]{32,44}$/, expected: 'a base58 mint of 32 to 44 characters', lowerCase: false };
const EVM: AddressRule = { pattern: /^0x[0-9a-fA-F]{40}$/, expected: '0x followed by 40 hex digits', lowerCase: true };
// Chains whose ids are not EVM addresses; the indexer's own rules decide the case handling.
const FREE_FORM: AddressRule = { pattern: /^[A-Za-z0-9._:-]{1,128}$/, expected: 'letters, digits, ".", "_", ":" or "-" (at most 128)', lowerCase: false };
const RULES: Readonly<Record<string, AddressRule>> = {
  [COINGECKO_PREFIX]: { pattern: /^[a-z0-9][a-z0-9._-]{0,99}$/i, expected: 'a CoinGecko id such as usd-coin', lowerCase: true },
  solana: BASE58_MINT,
  eclipse: BASE58_MINT,
  tron: { pattern: /^T[1-9A-HJ-NP-Za-km-z]{33}$/, expected: 'a base58 address starting with T (34 characters)', lowerCase: false },
  starknet: { pattern: /^0x[0-9a-fA-F]{1,64}$/, expected: '0x followed by 1 to 64 hex digits', lowerCase: true },
  sui: { pattern: /^0x[0-9a-fA-F]{1,64}(::\w+::\w+)?$/, expected: '0x followed by hex digits, optionally ::module::Name', lowerCase: false },
  aptos: { pattern: /^0x[0-9a-fA-F]{1,64}(::\w+::\w+)?$/, expected: '0x followed by hex digits, optionally ::module::Name', lowerCase: false },
  bitcoin: FREE_FORM,
  ton: FREE_FORM,
  near: FREE_FORM,
};

/** How addresses on a chain are checked; every chain without its own rule is taken as EVM. */
export function addressRuleOf(chain: string): AddressRule {
  return ownEntry(RULES, chain) ?? EVM;
}

// Common names the indexer spells differently; used only to say so in the error, never rewritten.
const CHAIN_ALIASES: Readonly<Record<string, string>> = { avalanche: 'avax', gnosis: 'xdai', zksync: 'era', bnb: 'bsc', matic: 'polygon' };

function parseOne(input: string, knownChains: ReadonlySet<string>): TokenId | InvalidToken {
  const colon = input.indexOf(':');
  if (colon <= 0 || colon === input.length - 1) {
    return { input, kind: 'malformed', reason: `'${input}' is not <chain>:<address> or coingecko:<slug>` };
  }
  const chain = input.slice(0, colon).toLowerCase();
  const raw = input.slice(colon + 1);
  if (chain !== COINGECKO_PREFIX && !knownChains.has(chain)) {
    const alias = ownEntry(CHAIN_ALIASES, chain);
    const hint = alias && knownChains.has(alias) ? ` (the indexer calls it ${alias})` : '';
    return { input, kind: 'unknown_chain', reason: `'${input}' names unknown chain '${input.slice(0, colon)}'${hint}` };
  }
  const rule = addressRuleOf(chain);
  if (!rule.pattern.test(raw)) {
    return { input, kind: 'malformed', reason: `'${input}' is malformed: a ${chain} id is ${rule.expected}` };
  }
  const address = rule.lowerCase ? raw.toLowerCase() : raw;
  return { input, chain, address, key: `${chain}:${address}` };
}

/**
 * Splits a comma-separated token list and checks every entry against its chain's address rule and
 * the known chains. Exact repeats are kept once; other spellings of one token are kept apart so
 * each is answered under its own spelling.
 */
export function parseTokenList(list: string, knownChains: ReadonlySet<string>): ParsedTokens {
  const seen = new Set<string>();
  const tokens: TokenId[] = [];
  const invalid: InvalidToken[] = [];
  for (const entry of list.split(',')) {
    const input = entry.trim();
    if (seen.has(input)) continue;
    seen.add(input);
    if (input === '') {
      invalid.push({ input, kind: 'malformed', reason: 'an entry is empty (two commas in a row, or a comma at an end)' });
      continue;
    }
    const parsed = parseOne(input, knownChains);
    if ('key' in parsed) tokens.push(parsed);
    else invalid.push(parsed);
  }
  return { tokens, invalid };
}

/** The distinct upstream ids of some tokens, in first-seen order. */
export function upstreamKeysOf(tokens: readonly TokenId[]): string[] {
  return [...new Set(tokens.map((t) => t.key))];
}

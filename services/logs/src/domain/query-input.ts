import { AppError } from '@tollgate/envelope';
import type { Hex } from 'viem';

/** A block parameter: a number, or a tag resolved against the node at query time. */
export type BlockRef = number | 'latest' | 'safe' | 'finalized';

/** A 400 for a value the user sent: the message says what is allowed, details name the parameter. */
export function badInput(parameter: string, message: string): AppError {
  return new AppError('BAD_REQUEST', message, { details: { parameter } });
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const TOPIC = /^0x[0-9a-fA-F]{64}$/;
const BLOCK_TAGS = ['latest', 'safe', 'finalized'] as const;

/** Largest number of addresses or of OR-ed topics per position (geth's default query limit is 1000). */
export const MAX_LIST = 100;

function splitList(parameter: string, value: string): string[] {
  const items = value.split(',').map((s) => s.trim());
  if (items.some((s) => s === '')) throw badInput(parameter, `${parameter} must be a comma-separated list without empty items`);
  if (items.length > MAX_LIST) throw badInput(parameter, `${parameter} takes at most ${MAX_LIST} values`);
  return [...new Set(items.map((s) => s.toLowerCase()))];
}

/** Parses a comma-separated address list into lower-case addresses. */
export function parseAddresses(parameter: string, value: string): Hex[] {
  const items = splitList(parameter, value);
  const bad = items.find((a) => !ADDRESS.test(a));
  if (bad !== undefined) throw badInput(parameter, `${parameter} must be 0x-prefixed 20-byte hex addresses, comma-separated; got '${bad}'`);
  return items as Hex[];
}

/**
 * Parses one topic position: comma = OR. A 20-byte address is accepted and left-padded to 32
 * bytes, which is how indexed addresses are stored.
 */
export function parseTopic(parameter: string, value: string): Hex[] {
  return splitList(parameter, value).map((item) => {
    if (TOPIC.test(item)) return item as Hex;
    if (ADDRESS.test(item)) return `0x${'0'.repeat(24)}${item.slice(2)}` as Hex;
    throw badInput(parameter, `${parameter} must be 0x-prefixed 32-byte hex topics (or 20-byte addresses), comma-separated; got '${item}'`);
  });
}

/** Parses a block parameter: a non-negative decimal or 0x number, or latest, safe or finalized. */
export function parseBlockRef(parameter: string, value: string): BlockRef {
  const text = value.trim().toLowerCase();
  if ((BLOCK_TAGS as readonly string[]).includes(text)) return text as BlockRef;
  const number = /^\d{1,15}$/.test(text) ? Number(text) : /^0x[0-9a-f]{1,13}$/.test(text) ? Number.parseInt(text, 16) : NaN;
  if (!Number.isSafeInteger(number)) {
    throw badInput(parameter, `${parameter} must be a block number (decimal or 0x hex) or one of ${BLOCK_TAGS.join(', ')}`);
  }
  return number;
}

/** Topic filter positions 0–3; null is a wildcard. Trailing wildcards are dropped. */
export type TopicFilter = (Hex[] | null)[];

/** Builds the positional filter, dropping trailing wildcards (nodes differ on how they match them). */
export function topicFilter(positions: readonly (Hex[] | null | undefined)[]): TopicFilter {
  const list = positions.map((p) => (p && p.length ? p : null));
  while (list.length && list[list.length - 1] === null) list.pop();
  return list;
}

/** Client-side re-check of a topic filter: each given position must exist and match. */
export function matchesTopics(topics: readonly Hex[], filter: TopicFilter): boolean {
  return filter.every((allowed, i) => {
    if (allowed === null) return true;
    const topic = topics[i];
    return topic !== undefined && allowed.includes(topic.toLowerCase() as Hex);
  });
}

import { AppError, SUBSCRIPTION_HEADER } from '@tollgate/envelope';
import type { Request } from 'express';
import { batchLimitProblem, planOf } from '../domain/plan-limits';
import { parseTokenList } from '../domain/token-id';
import type { TokenId } from '../domain/token-id';
import type { ChainList } from '../data/chain-list';


/**
 * Turns the `tokens` parameter into ids: the plan's batch limit first (no upstream call for a list
 * that is too long anyway), then every entry against the chain list.
 */
export async function resolveTokens(req: Request, list: string, chainList: ChainList): Promise<TokenId[]> {
  const distinct = new Set(list.split(',').map((t) => t.trim())).size;
  const plan = planOf(req.header(SUBSCRIPTION_HEADER));
  const tooMany = batchLimitProblem(plan, distinct);
  if (tooMany) throw new AppError('BAD_REQUEST', tooMany, { details: { parameter: 'tokens', plan, count: distinct } });

  const { tokens, invalid } = parseTokenList(list, await chainList.get());
  if (invalid.length === 0) return tokens;
  const unknownChain = invalid.some((i) => i.kind === 'unknown_chain');
  const reasons = invalid.slice(0, 3).map((i) => i.reason);
  const more = invalid.length > 3 ? ` (and ${invalid.length - 3} more)` : '';
  const hint = unknownChain ? '; GET /v1/meta lists the supported chains in data.chains' : '';
  throw new AppError('BAD_REQUEST', `tokens: ${reasons.join('; ')}${more}${hint}`, {
    details: { parameter: 'tokens', invalid: invalid.map((i) => ({ token: i.input, kind: i.kind, reason: i.reason })) },
  });
}

/** Rejects a time after now: the indexer would answer nothing for it. */
export function assertNotFuture(name: string, seconds: number | undefined, nowMs: number): void {
  const now = Math.floor(nowMs / 1000);
  if (seconds !== undefined && seconds > now) {
    throw new AppError('BAD_REQUEST', `${name} must be Unix seconds no later than now (${now})`, { details: { parameter: name } });
  }
}

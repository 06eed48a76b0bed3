import { createQueryParser, sendOk, readOnlyRoute } from '@tollgate/envelope';
import { Router } from 'express';
import type { Hex } from 'viem';
import { isErc20Transfer, toTransferRecord, TRANSFER_TOPIC } from '../domain/log-record.js';
import { parseAddresses, parseBlockRef, parseTopic, topicFilter } from '../domain/query-input.js';
import type { LogPager } from '../log-pager.js';
import { chainFor, planOf, requireTopicFiltering } from './plan-gate.js';
import { TRANSFERS_QUERY, TRANSFERS_ROUTE } from './page-route-docs.js';

interface TransfersQuery {
  chain: string;
  token: string;
  from?: string;
  to?: string;
  from_block: string;
  to_block: string;
  limit: number;
  cursor?: string;
}

const parse = createQueryParser<TransfersQuery>(TRANSFERS_QUERY);

// from/to are indexed: they filter as topics 1 and 2, padded like any indexed address.
function party(name: 'from' | 'to', value: string | undefined): Hex[] | undefined {
  return value === undefined ? undefined : parseTopic(name, parseAddresses(name, value).join(','));
}

/** `GET /v1/transfers`: ERC-20 Transfer events decoded into from, to and value. */
export function createTransfersRoute(pager: LogPager): Router {
  const router = Router();
  readOnlyRoute(router, TRANSFERS_ROUTE.path, async (req, res) => {
    const q = parse(req.query);
    const plan = planOf(req);
    const chain = chainFor(q.chain, plan);
    const token = parseAddresses('token', q.token);
    const from = party('from', q.from);
    const to = party('to', q.to);
    const range = { from: parseBlockRef('from_block', q.from_block), to: parseBlockRef('to_block', q.to_block) };
    const filtering = q.from !== undefined ? 'from' : q.to !== undefined ? 'to' : undefined;
    if (filtering) requireTopicFiltering(plan, filtering);

    const page = await pager({
      kind: 'transfers',
      chain,
      address: token,
      topics: topicFilter([[TRANSFER_TOPIC], from, to]),
      ...range,
      limit: q.limit,
      cursor: q.cursor,
      keep: isErc20Transfer,
    });
    const transfers = page.logs.map(toTransferRecord);
    sendOk(
      res,
      {
        chain: { slug: chain.slug, id: chain.id, name: chain.name },
        from_block: page.fromBlock,
        to_block: page.toBlock,
        count: transfers.length,
        transfers,
        cursor: page.cursor,
      },
      TRANSFERS_ROUTE.message,
    );
  });
  return router;
}

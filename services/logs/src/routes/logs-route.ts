import { createQueryParser, sendOk, readOnlyRoute } from '@tollgate/envelope';
import { Router } from 'express';
import type { Hex } from 'viem';
import { indexBySelector, KNOWN_NAMES, KNOWN_SPECS, resolveEvent } from '../domain/events.js';
import { toLogRecord } from '../domain/log-record.js';
import { badInput, parseAddresses, parseBlockRef, parseTopic, topicFilter } from '../domain/query-input.js';
import type { LogPager } from '../log-pager.js';
import { chainFor, planOf, requireTopicFiltering } from './plan-gate.js';
import { LOGS_QUERY, LOGS_ROUTE } from './page-route-docs.js';

interface LogsQuery {
  chain: string;
  address?: string;
  from_block: string;
  to_block: string;
  event?: string;
  topic0?: string;
  topic1?: string;
  topic2?: string;
  topic3?: string;
  limit: number;
  cursor?: string;
}

const parse = createQueryParser<LogsQuery>(LOGS_QUERY);
const KNOWN_BY_SELECTOR = indexBySelector(KNOWN_SPECS);
const TOPIC_PARAMS = ['topic0', 'topic1', 'topic2', 'topic3'] as const;

function eventSpecs(value: string) {
  const specs = resolveEvent(value);
  if (!specs) {
    throw badInput('event', `event must be a known name (${KNOWN_NAMES.join(', ')}) or a full signature such as Transfer(address indexed from,address indexed to,uint256 value)`);
  }
  return specs;
}

/** `GET /v1/logs`: logs by address, topics or event, and block range, each decoded. */
export function createLogsRoute(pager: LogPager): Router {
  const router = Router();
  readOnlyRoute(router, LOGS_ROUTE.path, async (req, res) => {
    const q = parse(req.query);
    const plan = planOf(req);
    const chain = chainFor(q.chain, plan);
    const address = q.address === undefined ? undefined : parseAddresses('address', q.address);
    const from = parseBlockRef('from_block', q.from_block);
    const to = parseBlockRef('to_block', q.to_block);
    const positions: (Hex[] | undefined)[] = TOPIC_PARAMS.map((name) => (q[name] === undefined ? undefined : parseTopic(name, q[name] as string)));
    const specs = q.event === undefined ? [] : eventSpecs(q.event);
    if (specs.length && positions[0]) throw badInput('event', 'give either event or topic0, not both: event sets topic0');
    if (specs.length) positions[0] = [...new Set(specs.map((s) => s.selector))];
    const filtering = q.event !== undefined ? 'event' : TOPIC_PARAMS.find((name) => q[name] !== undefined);
    if (filtering) requireTopicFiltering(plan, filtering);

    // A signature the caller spelled out is tried before the built-in table.
    const bySelector = specs.length ? indexBySelector([...specs, ...KNOWN_SPECS]) : KNOWN_BY_SELECTOR;
    const page = await pager({ kind: 'logs', chain, address, topics: topicFilter(positions), from, to, limit: q.limit, cursor: q.cursor });
    const logs = page.logs.map((log) => toLogRecord(log, bySelector));
    sendOk(
      res,
      { chain: { slug: chain.slug, id: chain.id, name: chain.name }, from_block: page.fromBlock, to_block: page.toBlock, count: logs.length, logs, cursor: page.cursor },
      LOGS_ROUTE.message,
    );
  });
  return router;
}

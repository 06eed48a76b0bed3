import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { ApiPlans } from '../../src/domain/plans';
import { billedPlanMessage, paidPlanMessage, paymentRefusalMessage } from '../../src/domain/subscription-refusal';
import type { PaymentRefusal } from '../../src/domain/subscription-refusal';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';

// Every text a customer can read (the refusals of the API path and of the dashboard, the portal's
// own strings) is checked for what only an operator should see: commands, env var names, and the
// names of the gateway's insides (issue 25).

const GATEWAY = path.resolve(__dirname, '../..');

/** Operator commands and internal words, each with why it is refused. */
const FORBIDDEN: [RegExp, string][] = [
  [/\bpnpm\b|\bnpm (run|start)\b/, 'a package manager command'],
  [/\btollgate [a-z]/, 'an operator CLI command'],
  [/\bcli\b/i, 'the CLI'],
  [/ADMIN_TOKEN|admin token/i, 'the admin token'],
  // An env var name (TOLLGATE_KEY is the customer's own, in the copied snippets).
  [/\b(?!TOLLGATE_KEY\b)[A-Z][A-Z0-9]+_[A-Z0-9_]*[A-Z0-9]\b/, 'an env var name'],
  [/\b(redis|sqlite|lua|admission|operator|stack trace)\b/i, 'an internal word'],
  [/\b(quota|key|session|account) store\b/i, 'the name of a store'],
  [/\b(undefined|NaN)\b|\[object /, 'a value that was not filled in'],
];

const problemsOf = (text: string): string[] => FORBIDDEN.filter(([re]) => re.test(text)).map(([, why]) => why);

/** String and template literals of a source file (comments skipped), `${…}` parts shown as `…`. */
function literals(source: string): { text: string; line: string }[] {
  const out: { text: string; line: string }[] = [];
  const lines = source.split('\n');
  let i = 0;
  while (i < source.length) {
    const c = source[i]!;
    if (c === '/' && source[i + 1] === '/') {
      i = source.indexOf('\n', i);
      if (i < 0) break;
    } else if (c === '/' && source[i + 1] === '*') {
      i = source.indexOf('*/', i) + 2;
    } else if (c === "'" || c === '"' || c === '`') {
      let j = i + 1;
      let text = '';
      while (j < source.length && source[j] !== c) {
        if (source[j] === '\\') {
          text += source[j + 1];
          j += 2;
        } else if (c === '`' && source[j] === '$' && source[j + 1] === '{') {
          let depth = 0;
          while (j < source.length) {
            if (source[j] === '{') depth++;
            if (source[j] === '}' && --depth === 0) break;
            j++;
          }
          text += '…';
          j++;
        } else {
          text += source[j++];
        }
      }
      out.push({ text, line: lines[source.slice(0, i).split('\n').length - 1] ?? '' });
      i = j + 1;
    } else {
      i++;
    }
  }
  return out;
}

const sources = (dir: string, ext: string): string[] =>
  readdirSync(path.join(GATEWAY, dir))
    .filter((f) => f.endsWith(ext) && !f.endsWith(`.test${ext}`))
    .map((f) => path.join(dir, f));

// The modules whose refusals and texts reach customers: the API path, the dashboard (and the
// billing routes it serves), the 402 wording, the request parsing they share, and the portal.
const SERVER_FILES = [...sources('src/api', '.ts'), ...sources('src/dashboard', '.ts'), 'src/billing/billing-routes.ts', 'src/billing/billing-actions.ts', 'src/billing/billing-errors.ts', 'src/domain/subscription-refusal.ts', 'src/domain/customer-messages.ts', 'src/domain/account-actions.ts', 'src/http/account-limits.ts', 'src/events/event-routes.ts', 'src/http/body.ts', 'src/http/mailed-codes.ts', 'src/http/dates.ts'];
const PORTAL_FILES = [...sources('portal/js', '.js'), ...sources('portal/js/views', '.js'), ...sources('web', '.js')];

// What is not a text for people: an error code, a module path, a log line (for operators), or
// TypeScript the reference pages generate for programs (where `undefined` is a type, not a gap).
const notForPeople = (text: string, line: string): boolean =>
  /^[A-Z_]+$/.test(text) || /^[.@]|^node:/.test(text) || /\bexport (type|interface|function|const)\b/.test(text) || /\blogger\.\w+\(|console\.\w+\(|\bimport\b/.test(line);

describe('every customer-facing message', () => {
  it('when the texts of the API path, the dashboard routes and the portal are read, then none shows an operator command, an env var name or an internal word', () => {
    const found: string[] = [];
    for (const file of [...SERVER_FILES, ...PORTAL_FILES]) {
      for (const { text, line } of literals(readFileSync(path.join(GATEWAY, file), 'utf8'))) {
        if (!/\s/.test(text) || notForPeople(text, line)) continue;
        for (const why of problemsOf(text)) found.push(`${file}: ${why}: ${text.slice(0, 120)}`);
      }
    }
    expect(found).toEqual([]);
  });

  const token: ApiPlans = { playground_per_day: 10, plans: { free: { monthly_quota: 1, rate_per_second: 1, price: 0, currency: 'EUR' }, pro: { monthly_quota: 1, rate_per_second: 1, price: 2500, currency: 'EUR' } } };
  const refusals: [string, PaymentRefusal, Parameters<typeof paymentRefusalMessage>[3]][] = [
    ['none', 'no_subscription', undefined],
    ['inactive', 'no_subscription', { plan: 'pro', status: 'inactive' }],
    ['withdrawn', 'unknown_plan', { plan: 'gold', status: 'active' }],
    ['playground', 'playground_exhausted', undefined],
    ['overdue', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'payment_overdue' }],
    ['unpaid', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'unpaid' }],
    ['canceled', 'no_subscription', { plan: 'pro', status: 'inactive', lapsed: 'canceled' }],
  ];
  const said = [
    ...refusals.map(([, outcome, sub]) => paymentRefusalMessage(outcome, 'token', token, sub)),
    paidPlanMessage('token', 'pro', '25.00 EUR', { enabled: true }),
    paidPlanMessage('token', 'pro', '25.00 EUR', { enabled: false }),
    paidPlanMessage('token', 'pro', '25.00 EUR', { enabled: false, supportEmail: 'help@example.com' }),
    billedPlanMessage('token', 'pro'),
  ];
  it.each(said)('when the 402 wording is %j, then it is one or two plain sentences with the page to go to or whom to ask', (message) => {
    expectPlainSentences(message);
    expect(message).toMatch(/\/portal\/(subscriptions|billing)|ask the people|write to/);
  });
});

/** Capital first letter, a full stop at the end, at most two sentences, nothing forbidden. */
function expectPlainSentences(message: string): void {
  expect(message).toMatch(/^[A-Z]/);
  expect(message).toMatch(/\.$/);
  expect(message.split(/(?<=[.!?])\s+(?=[A-Z])/).length).toBeLessThanOrEqual(2);
  expect(problemsOf(message)).toEqual([]);
  // Plans, quotas and suspensions belong to the account, never to "this key".
  expect(message).not.toMatch(/\bthis (API )?key\b/i);
}

describe('the refusals on the API path, as a customer receives them', () => {
  let upstream: EchoUpstream;
  let gw: GatewayFixture;
  beforeAll(async () => {
    upstream = await startEchoUpstream();
    gw = await buildGateway({ upstream: upstream.url, start: Date.parse('2026-03-31T23:59:50Z') });
  });
  afterAll(async () => {
    await gw.close();
    await upstream.close();
  });
  const keyOf = async (subscriptions: Record<string, { plan: string; status: 'active' }> = {}): Promise<{ key: string; accountId: string }> => {
    const account = await gw.stores.accountStore.createAccount({ email: `c${Math.random().toString(36).slice(2)}@example.com`, subscriptions });
    return { key: (await gw.stores.accountStore.createKey(account.id, { name: 'k' }))!.key, accountId: account.id };
  };
  const call = (key: string, path = '/token/v1/meta') => request(gw.app).get(path).set('x-tollgate-key', key);

  it('when calls are refused with 402, 403 and 429, then each message is one or two plain sentences naming what to do, with the portal page to go to', async () => {
    const messages: Record<string, string> = {};
    const none = await keyOf();
    messages.noPlan = (await call(none.key, '/burger/v1/index')).body.message;
    for (let i = 0; i < 11; i++) {
      const res = await call(none.key);
      if (res.status === 402) messages.playground = res.body.message;
    }
    const slow = await keyOf({ token: { plan: 'slow', status: 'active' } });
    for (let i = 0; i < 3; i++) {
      const res = await call(slow.key);
      if (res.status === 429) messages.rate = res.body.message;
    }
    const free = await keyOf({ token: { plan: 'free', status: 'active' } });
    for (let i = 0; i < 6; i++) {
      gw.clock.advance(1);
      const res = await call(free.key);
      if (res.status === 429) messages.quota = res.body.message;
    }
    const suspended = await keyOf({ token: { plan: 'free', status: 'active' } });
    await gw.stores.accountStore.setStatus(suspended.accountId, 'suspended');
    messages.suspended = (await call(suspended.key)).body.message;
    expect(Object.keys(messages).sort()).toEqual(['noPlan', 'playground', 'quota', 'rate', 'suspended']);
    for (const [name, message] of Object.entries(messages)) {
      expect([name, problemsOf(message)]).toEqual([name, []]);
      expectPlainSentences(message);
    }
    for (const name of ['noPlan', 'playground', 'quota', 'rate']) expect(messages[name]).toContain('/portal/subscriptions');
  });
});

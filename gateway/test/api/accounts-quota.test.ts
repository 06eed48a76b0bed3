import { eventually } from '../support/eventually';
import { insideOneMonth, startRedisGateways, tally } from '../support/quota-gateways';
import type { QuotaGateways } from '../support/quota-gateways';

jest.setTimeout(90_000);

const Q = 200;
let env: QuotaGateways;

beforeAll(async () => {
  env = await startRedisGateways({ count: 2, quota: Q, env: { REDIS_TIMEOUT_MS: '5000' } });
});

afterAll(async () => {
  await env?.stop();
});

describe('one account, two keys, two gateways', () => {
  it(`when ${5 * Q} calls arrive at once over both keys and both gateways on a ${Q}-call monthly quota, then exactly ${Q} are admitted and the account's usage is ${Q}`, async () => {
    // The gateways count by the real clock: keep the burst inside one UTC month.
    await insideOneMonth(30_000);
    const first = await env.admin<{ id: string; key: string; account_id: string }>('POST', '/admin/v1/keys', { owner: 'team@example.com', subscriptions: { token: 'q' } }, 0);
    const second = await env.admin<{ id: string; key: string; account_id: string }>('POST', `/admin/v1/accounts/${first.account_id}/keys`, { name: 'second' }, 1);
    expect(second.account_id).toBe(first.account_id);
    expect(second.key).not.toBe(first.key);
    const accountId = first.account_id;

    // Every pairing of key and gateway: call i uses key i % 2 on gateway ⌊i / 2⌋ % 2.
    const results = await env.load([first.key, second.key], 5 * Q);
    expect(tally(results)).toEqual({ '200': Q, '429 QUOTA_EXCEEDED': 4 * Q });

    // Usage is the account's: the same through either key and on either gateway.
    const usage = await env.admin<{ account_id: string; apis: { api: string; used: number; remaining: number }[] }>('GET', `/admin/v1/accounts/${accountId}/usage`, undefined, 1);
    expect(usage.apis.find((line) => line.api === 'token')).toMatchObject({ used: Q, remaining: 0 });
    for (const [g, k] of [[0, first], [1, second]] as const) {
      const perKey = await env.admin<{ apis: { api: string; used: number }[] }>('GET', `/admin/v1/keys/${k.id}/usage`, undefined, g);
      expect(perKey.apis.find((line) => line.api === 'token')?.used).toBe(Q);
    }
    expect(await env.monthCount(accountId)).toBe(Q);

    // Each gateway flushes its counts of the history within a second: together they hold every call.
    type History = { days: { day: string; api: string; counts: Record<string, number> }[] };
    const totals = async (): Promise<Record<string, number>> => {
      const history = await env.admin<History>('GET', `/admin/v1/accounts/${accountId}/history`, undefined, 0);
      const sum: Record<string, number> = {};
      for (const day of history.days.filter((d) => d.api === 'token')) for (const [outcome, n] of Object.entries(day.counts)) sum[outcome] = (sum[outcome] ?? 0) + n;
      return sum;
    };
    await eventually(async () => (await totals())['2xx'] === Q && (await totals())['429'] === 4 * Q, 'the history reaching every call');
    expect(await totals()).toMatchObject({ '2xx': Q, '429': 4 * Q, '4xx': 0, '5xx': 0, refunded: 0 });
  });
});

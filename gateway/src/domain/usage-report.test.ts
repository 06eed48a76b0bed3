import { builtInPlanTable } from '../config';
import { usageReport } from './usage-report';

const BUILT_IN_PLANS = builtInPlanTable();

const now = Date.parse('2026-03-31T23:00:00Z');

describe('usageReport', () => {
  it.each([
    [
      'an active plan',
      { burger: { plan: 'starter', status: 'active' as const } },
      { burger: { month: 10, day: 0 } },
      [{ api: 'burger', plan: 'starter', status: 'active', window: 'month', period: '2026-03', limit: 290000, used: 10, remaining: 289990, resets_at: '2026-04-01T00:00:00.000Z', resets_in_seconds: 3600 }],
    ],
    [
      'an inactive plan on an API with a playground',
      { token: { plan: 'pro', status: 'inactive' as const } },
      { token: { month: 0, day: 12 } },
      [{ api: 'token', plan: 'pro', status: 'inactive', window: 'day', period: '2026-03-31', limit: 10, used: 12, remaining: 0, resets_at: '2026-04-01T00:00:00.000Z', resets_in_seconds: 3600 }],
    ],
  ])('when the key has %s, then its line is as expected', (_case, subs, counts, expected) => {
    const items = usageReport(subs, BUILT_IN_PLANS, counts, now).filter((i) => i.api in subs);
    expect(items).toEqual(expected);
  });

  it('when the key has nothing, then only playground APIs are listed', () => {
    expect(usageReport({}, BUILT_IN_PLANS, {}, now).map((i) => `${i.api}:${i.window}:${i.used}`)).toEqual(['token:day:0', 'logs:day:0']);
  });
});

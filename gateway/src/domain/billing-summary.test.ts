import { summarizeBilling } from './billing-summary';

describe('summarizeBilling', () => {
  it('when subscriptions are in several currencies and states, then MRR sums active, trialing and past-due ones per currency, and every status is counted', () => {
    const summary = summarizeBilling([
      { status: 'active', amount: 2500, currency: 'EUR' },
      { status: 'past_due', amount: 950, currency: 'EUR' },
      { status: 'active', amount: 575, currency: 'USD' },
      { status: 'unpaid', amount: 1690, currency: 'USD' },
      { status: 'canceled', amount: 5950, currency: 'EUR' },
      { status: 'trialing', amount: 100, currency: 'USD' },
    ]);
    expect(summary).toEqual({
      mrr: { EUR: 3450, USD: 675 },
      subscriptions: { incomplete: 0, incomplete_expired: 0, trialing: 1, active: 2, past_due: 1, unpaid: 1, canceled: 1, paused: 0 },
    });
  });

  it('when there are none, then MRR is empty and every count 0', () => {
    expect(summarizeBilling([]).mrr).toEqual({});
    expect(Object.values(summarizeBilling([]).subscriptions).every((n) => n === 0)).toBe(true);
  });
});

import type { ReceiptMail } from '@tollgate/stripe-local';
import { MID_MARCH, useBillingGateway } from './support/billing-gateway';

jest.setTimeout(60_000);

const mailed: ReceiptMail[] = [];
const gw = useBillingGateway({ start: MID_MARCH, stripeLocal: { accountName: 'Tollgate', mailReceipt: (mail) => void mailed.push(mail) } });

describe('receipts of card payments', () => {
  it('when a person pays for a plan and upgrades it, then Billing lists each payment with its card and Stripe’s receipt, whose page and mail say what was paid', async () => {
    const a = await gw.account('receipts@example.com');
    await gw.pay((await gw.json('POST', '/dashboard/v1/billing/checkout', a.session, { api: 'token', plan: 'pro' })).body.data.url);
    await gw.json('PUT', '/dashboard/v1/billing/subscriptions/token', a.session, { plan: 'scale' });
    const page = await gw.json('GET', '/dashboard/v1/billing', a.key);
    expect(page.status).toBe(200);
    const payments = page.body.data.payments as { amount: number; currency: string; card: string; receipt_url: string }[];
    // 15.5 of March's 31 days: pro (1250), then the upgrade to scale (2975 − 1250).
    expect(payments.map((p) => [p.amount, p.currency, p.card])).toEqual([[1725, 'EUR', 'VISA •••• 4242'], [1250, 'EUR', 'VISA •••• 4242']]);
    const receipt = await fetch(payments[1]!.receipt_url);
    expect(receipt.status).toBe(200);
    const text = (await receipt.text()).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('Receipt from Tollgate');
    expect(text).toContain('Amount paid €12.50');
    expect(mailed.filter((m) => m.to === 'receipts@example.com').map((m) => m.text.split('\n')[2])).toEqual(['Amount paid: €12.50', 'Amount paid: €17.25']);
  });
});

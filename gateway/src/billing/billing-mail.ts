import type { Mail } from '../mail/mailer';
import { PORTAL_BILLING_PAGE, PORTAL_SUBSCRIPTIONS_PAGE } from '../domain/subscription-refusal';
import { formatAmount } from '../domain/format-amount';
import type { BillingRecord } from '../data/billing-store';

const utc = (iso: string | null): string => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : 'the end of the grace period');

/** The mail a person gets when a payment for a plan failed: what happened, until when calls work, where to pay. */
export function paymentFailedMail(to: string, api: string, record: BillingRecord, publicUrl: string): Mail {
  const price = formatAmount(record.amount, record.currency);
  return {
    to,
    subject: `Payment failed for your Tollgate ${api} ${record.plan} plan`,
    text: [
      `We could not charge your card for the ${api} ${record.plan} plan (${price} a month).`,
      '',
      `Your calls keep working until ${utc(record.grace_until)}. After that they are refused (402) until the open invoice is paid.`,
      '',
      'Pay the invoice or change the card here:',
      `${publicUrl}${PORTAL_BILLING_PAGE}`,
      '',
      'Stripe also retries the charge over the next days; if it goes through, nothing more is needed.',
    ].join('\n'),
  };
}

/** The mail a person gets when a failed payment went through after all and the plan is active again. */
export function paymentRecoveredMail(to: string, api: string, record: BillingRecord, publicUrl: string): Mail {
  return {
    to,
    subject: `Payment received: your Tollgate ${api} ${record.plan} plan is active`,
    text: [
      `Thank you: the invoice for the ${api} ${record.plan} plan is paid, and your calls are served on the plan again.`,
      '',
      'Your invoices are here:',
      `${publicUrl}${PORTAL_BILLING_PAGE}`,
    ].join('\n'),
  };
}

/** The mail a person gets when a paid plan (or its whole API) left the catalogue: it ends at its period's end and is not charged again. */
export function withdrawnPlanMail(to: string, api: string, record: BillingRecord, apiKept: boolean, publicUrl: string): Mail {
  const price = formatAmount(record.amount, record.currency);
  const ends = record.current_period_end ? utc(record.current_period_end) : 'the end of the period you paid for';
  const what = apiKept ? `the ${api} API's ${record.plan} plan is no longer offered` : `the ${api} API is no longer offered`;
  return {
    to,
    subject: `Your Tollgate ${api} ${record.plan} plan ends on ${ends}: it was withdrawn`,
    text: [
      `We are sorry: ${what} here, so your ${api} ${record.plan} plan (${price} a month) will not renew.`,
      '',
      `It ends on ${ends}, and your card is not charged for it again. ${apiKept ? `Calls on it are refused (402) now; choose another ${api} plan here:` : 'Calls to it are refused now (410).'}`,
      ...(apiKept ? [`${publicUrl}${PORTAL_SUBSCRIPTIONS_PAGE}`] : []),
      '',
      'Your invoices stay here:',
      `${publicUrl}${PORTAL_BILLING_PAGE}`,
    ].join('\n'),
  };
}

import { payInvoice } from '../billing/invoices';
import { replaceCard } from '../billing/replace-card';
import { updateSubscription } from '../billing/update-subscription';
import { momentFor } from '../core/context';
import type { Context } from '../core/context';
import type { Answer } from '../http/send-answer';
import { invalidRequest, StripeError } from '../http/stripe-error';
import { notFoundPage, readCardFields, redirect } from './html';
import { showPortal } from './portal-page';

/** The forms of the portal page. */
export const PORTAL_ACTIONS = ['payment-method', 'pay', 'cancel', 'renew'] as const;

/** A portal form's action. */
export type PortalAction = (typeof PORTAL_ACTIONS)[number];

/**
 * `POST /portal/:id/<action>`: replace the card (and pay what is owed with it), pay an invoice,
 * cancel a plan at the period's end or take that back. Success redirects (303) to the page with a
 * notice, or to the flow's `after_completion` URL; a failure shows the page with the error.
 */
export function submitPortal(ctx: Context, id: string, action: PortalAction, form: Record<string, string>): Answer {
  const session = ctx.store.portalSessions.get(id);
  if (!session) return notFoundPage('This portal session does not exist.');
  const customer = ctx.store.customers.get(session.customer);
  if (!customer) return notFoundPage('This customer no longer exists.');
  const moment = momentFor(ctx, customer.id);
  try {
    const done = action === 'payment-method' ? 'card' : action === 'pay' ? 'paid' : action === 'cancel' ? 'canceled' : 'renewed';
    if (action === 'payment-method') {
      const decline = replaceCard(ctx, customer, readCardFields(form), moment);
      if (decline) return showPortal(ctx, session, { status: 402, error: true, text: `Your card was saved, but paying your open invoices failed: ${decline.message}` });
    } else if (action === 'pay') {
      const invoice = ctx.store.invoices.get(form.invoice ?? '');
      if (!invoice || invoice.customer !== customer.id || invoice.status !== 'open') throw invalidRequest('This invoice cannot be paid.');
      const decline = payInvoice(ctx, invoice, moment);
      if (decline) return showPortal(ctx, session, { status: 402, error: true, text: decline.message });
    } else {
      const subscription = ctx.store.subscriptions.get(form.subscription ?? '');
      if (!subscription || subscription.customer !== customer.id) throw invalidRequest('This plan is not yours.');
      updateSubscription(ctx, subscription, { items: [], prorationBehavior: 'none', paymentBehavior: 'allow_incomplete', cancelAtPeriodEnd: action === 'cancel' }, moment);
    }
    const after = session.flow?.after_completion;
    return redirect(after?.type === 'redirect' && after.redirect ? after.redirect.return_url : `/portal/${session.id}?done=${done}`);
  } catch (error) {
    if (!(error instanceof StripeError)) throw error;
    return showPortal(ctx, session, { status: error.status, error: true, text: error.body.message });
  }
}

import type { IncomingMessage } from 'node:http';
import type { Context } from '../core/context';
import { matchRoute } from '../http/api-route';
import { parseForm } from '../http/parse-form';
import { readBody } from '../http/read-body';
import type { Answer } from '../http/send-answer';
import { showCheckout, submitCheckout } from './checkout-page';
import { html, notFoundPage, page } from './html';
import { invoicePdf } from './invoice-pdf';
import { showInvoice, submitInvoice } from './invoice-page';
import { PORTAL_ACTIONS, submitPortal } from './portal-actions';
import type { PortalAction } from './portal-actions';
import { PORTAL_NOTICES, showPortal } from './portal-page';
import { showReceipt } from './receipt-page';

interface PageRoute {
  method: 'GET' | 'POST';
  pattern: string;
  handle: (path: Record<string, string>, form: Record<string, string>, url: URL) => Answer;
}

/** The hosted pages: Checkout, the billing portal, invoices and their PDFs; `undefined` for other paths. */
export async function handlePageRequest(ctx: Context, req: IncomingMessage, url: URL): Promise<Answer | undefined> {
  const match = matchRoute(pageRoutes(ctx), req.method ?? 'GET', url.pathname);
  if (!match) return undefined;
  const form = req.method === 'POST' ? flatForm(await readBody(req)) : {};
  return match.route.handle(match.path, form, url);
}

function pageRoutes(ctx: Context): PageRoute[] {
  return [
    { method: 'GET', pattern: '/', handle: () => page(200, 'stripe-local', html`<section><h1>stripe-local</h1><p>A local stand-in for Stripe's API at <code>/v1</code>, with hosted Checkout, portal and invoice pages.</p></section>`) },
    // Browsers ask for it on every page; an empty answer keeps their consoles quiet.
    { method: 'GET', pattern: '/favicon.ico', handle: () => ({ status: 204, body: '' }) },
    { method: 'GET', pattern: '/checkout/:id', handle: (path) => showCheckout(ctx, path.id!) },
    { method: 'POST', pattern: '/checkout/:id', handle: (path, form) => submitCheckout(ctx, path.id!, form) },
    {
      method: 'GET',
      pattern: '/portal/:id',
      handle: (path, _form, url) => {
        const session = ctx.store.portalSessions.get(path.id!);
        if (!session) return notFoundPage('This portal session does not exist.');
        const done = url.searchParams.get('done') ?? '';
        return showPortal(ctx, session, Object.hasOwn(PORTAL_NOTICES, done) ? { status: 200, error: false, text: PORTAL_NOTICES[done]! } : undefined);
      },
    },
    {
      method: 'POST',
      pattern: '/portal/:id/:action',
      handle: (path, form) => ((PORTAL_ACTIONS as readonly string[]).includes(path.action!) ? submitPortal(ctx, path.id!, path.action as PortalAction, form) : notFoundPage('No such action.')),
    },
    { method: 'GET', pattern: '/receipts/:id', handle: (path) => showReceipt(ctx, path.id!) },
    { method: 'GET', pattern: '/invoice/:id', handle: (path) => showInvoice(ctx, path.id!) },
    { method: 'POST', pattern: '/invoice/:id', handle: (path, form) => submitInvoice(ctx, path.id!, form) },
    {
      method: 'GET',
      pattern: '/invoice/:id/pdf',
      handle: (path) => {
        const invoice = ctx.store.invoices.get(path.id!);
        if (!invoice || invoice.status === 'draft') return notFoundPage('This invoice does not exist.');
        return { status: 200, body: invoicePdf(invoice, ctx.settings.accountName), headers: { 'Content-Type': 'application/pdf', 'Content-Disposition': `inline; filename="${invoice.number ?? invoice.id}.pdf"` } };
      },
    },
  ];
}

// A page's form has flat fields; anything nested or repeated is ignored.
function flatForm(body: string): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries(parseForm(body))) if (typeof value === 'string') form[key] = value;
  return form;
}

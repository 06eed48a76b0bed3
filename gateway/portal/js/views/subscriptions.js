import { dateTime, el, errorRegion, fill, heading, int, price, showError, statusRegion } from '../../shared/dom.js';
import { plans, request } from '../api.js';
import { confirmDialog } from '../../shared/dialog.js';
import { billedLine, billingStatus, cardsOffText, goToCheckout, limitsText, previewBody, previewPlan } from '../billing.js';
import { may, role } from '../session.js';
import { apiTitle, requireSession } from './common.js';

export const title = 'Subscriptions';

/** Per API: the current plan, free plans at once, paid plans by card (Stripe Checkout), changes and cancellation. */
export async function render(main, ctx) {
  if (requireSession(main, ctx, title, 'subscribe to plans')) await renderSignedIn(main, ctx);
}

async function renderSignedIn(main, ctx) {
  const problem = errorRegion();
  const sections = el('div');
  const lead = el('p', { class: 'lead' }, 'A plan covers every key of your account. Free plans start at once, without a card; paid plans are paid by card, monthly, each period ending on the first of a month.');
  main.append(heading(title), lead, problem, sections);
  const [table, who, initial] = await Promise.all([plans(), request('GET', '/dashboard/v1/account'), billingStatus()]);
  let subscriptions = (who.account ?? who).subscriptions ?? {};
  let billing = initial;
  const notes = new Map();
  if (new URLSearchParams(location.search).get('checkout') === 'canceled') lead.after(el('p', { class: 'status', role: 'status' }, 'The card payment was cancelled: nothing was charged and no plan changed.'));
  if (!billing.card_payments) lead.after(el('p', { class: 'note' }, cardsOffText(billing)));
  // What the role cannot change is not offered (docs/teams.md#roles); the page says why.
  const roleNote = !may('plans.free') && !may('billing')
    ? `Your role in this team (${role()}) cannot change plans: an owner or a billing member of the team can.`
    : !may('billing') ? `Your role in this team (${role()}) cannot take paid plans or change the card: an owner or a billing member of the team can.` : null;
  if (roleNote) lead.after(el('p', { class: 'note', id: 'role-note' }, roleNote));

  const billedOf = (api) => billing.subscriptions.find((sub) => sub.api === api);
  function draw() {
    fill(sections, table.map((entry) => section(entry)));
  }

  // Runs a change, then shows the account and its billing as the gateway has them now.
  async function act(api, button, work, done) {
    button.disabled = true;
    const { local } = sectionParts(api);
    showError(local, null);
    try {
      const result = await work();
      // Declined in the price dialog: nothing was asked of the gateway.
      if (result === null) {
        button.disabled = false;
        return;
      }
      [billing, subscriptions] = await Promise.all([billingStatus(), request('GET', '/dashboard/v1/account').then((w) => (w.account ?? w).subscriptions ?? {})]);
      notes.clear();
      notes.set(api, done(result));
      draw();
      document.getElementById(`sub-${api}`)?.focus();
    } catch (err) {
      showError(local, err);
      button.disabled = false;
    }
  }
  const parts = new Map();
  const sectionParts = (api) => parts.get(api);

  function planAction(api, p, current, billed) {
    if (current && p.name === current) return el('strong', {}, 'Your plan');
    const label = (verb) => `${verb} ${p.name} for ${api}`;
    // A free plan is plans.free, unless a card pays for the API now: then every change goes through billing.
    if (!may(p.price === 0 && !billed ? 'plans.free' : 'billing')) return null;
    if (p.price === 0) {
      if (billed) {
        return el('button', { type: 'button', class: 'secondary', 'aria-label': `Switch ${api} to ${p.name} at the period’s end`, onclick: (e) => act(api, e.currentTarget, () => request('DELETE', `/dashboard/v1/billing/subscriptions/${encodeURIComponent(api)}`), (sub) => `Your ${api} ${sub.plan} plan ends on ${dateTime(sub.current_period_end)}; then the free plan.`) }, 'Switch at period end');
      }
      return el('button', { type: 'button', 'aria-label': label('Subscribe to'), onclick: (e) => act(api, e.currentTarget, () => request('PUT', `/dashboard/v1/subscriptions/${encodeURIComponent(api)}`, { plan: p.name }), () => `Your ${api} plan is ${p.name} now.`) }, 'Subscribe');
    }
    if (!billing.card_payments) return el('span', { class: 'muted' }, 'Not available here');
    if (!billed) {
      return el('button', { type: 'button', class: 'secondary', 'aria-label': label('Subscribe to'), onclick: async (e) => {
        const button = e.currentTarget;
        button.disabled = true;
        showError(sectionParts(api).local, null);
        try {
          // Say what is due today (the share of the month to the 1st) and what recurs, before Stripe's page.
          const preview = await previewPlan(api, p.name);
          if (!(await confirmDialog(`Subscribe to ${p.name} for ${api}?`, previewBody(preview), 'Continue to payment'))) {
            button.disabled = false;
            return;
          }
          await goToCheckout(api, p.name);
        } catch (err) {
          showError(sectionParts(api).local, err);
          button.disabled = false;
        }
      } }, 'Subscribe with card');
    }
    if (billed.state !== 'active') return el('span', { class: 'muted' }, 'Pay the open invoice first');
    if (billed.next_plan === p.name) return el('span', {}, `From ${dateTime(billed.current_period_end)}`);
    const now = p.price >= billed.amount;
    // Stripe's invoice preview first; the change is charged exactly that (its proration_date), or not made.
    const change = async () => {
      const preview = await previewPlan(api, p.name);
      const verb = now ? `Pay ${price(preview.due_now, preview.currency)} and upgrade` : 'Downgrade at period end';
      if (!(await confirmDialog(`${now ? 'Upgrade' : 'Downgrade'} ${api} to ${p.name}?`, previewBody(preview), verb))) return null;
      return request('PUT', `/dashboard/v1/billing/subscriptions/${encodeURIComponent(api)}`, { plan: p.name, ...(preview.proration_date === null ? {} : { proration_date: preview.proration_date }) });
    };
    const said = (sub) => (now ? `Upgraded: your ${api} plan is ${sub.plan} now (${limitsText(table, api, sub.plan)}); the difference for the rest of the period was charged.` : `Your ${api} plan changes to ${p.name} on ${dateTime(sub.current_period_end)}.`);
    return el('button', { type: 'button', class: 'secondary', 'aria-label': `${now ? 'Upgrade' : 'Downgrade'} ${api} to ${p.name}`, onclick: (e) => act(api, e.currentTarget, change, said) }, now ? 'Upgrade now' : 'Downgrade at period end');
  }

  function currentLine(entry, current, billed) {
    const { api } = entry;
    if (billed) {
      const pending = billed.state === 'active' && (billed.cancel_at_period_end || billed.next_plan);
      if (!may('billing')) return el('p', { class: 'current' }, `Current plan: ${billedLine(billed)}`);
      const keep = pending ? el('button', { type: 'button', class: 'secondary', 'aria-label': `Keep ${billed.plan} for ${api}`, onclick: (e) => act(api, e.currentTarget, () => request('POST', `/dashboard/v1/billing/subscriptions/${encodeURIComponent(api)}/keep`), (sub) => `Kept: your ${api} plan stays ${sub.plan}.`) }, `Keep ${billed.plan}`) : null;
      const cancel = billed.state === 'active' && !pending ? el('button', { type: 'button', class: 'secondary', 'aria-label': `Cancel plan (${billed.plan} for ${api})`, onclick: (e) => act(api, e.currentTarget, () => request('DELETE', `/dashboard/v1/billing/subscriptions/${encodeURIComponent(api)}`), (sub) => `Your ${api} ${sub.plan} plan ends on ${dateTime(sub.current_period_end)}; then the free plan.`) }, 'Cancel at period end') : null;
      const pay = billed.state === 'grace' || billed.state === 'lapsed' ? el('a', { href: ctx.pathOf('billing') }, 'Go to Billing') : null;
      return el('p', { class: 'current' }, `Current plan: ${billedLine(billed)}`, ' ', keep, cancel, pay);
    }
    const active = current && current.status === 'active' ? current.plan : null;
    const now = active
      ? `Current plan: ${active}.`
      : current
        ? `Current plan: ${current.plan} (${current.lapsed ? 'suspended: its payment failed' : current.status}).`
        : entry.playground_per_day > 0 ? `No plan: the playground gives ${entry.playground_per_day} test calls a day.` : 'No plan: calls are refused until you subscribe.';
    const cancel = active && may('plans.free') ? el('button', { type: 'button', class: 'secondary', 'aria-label': `Cancel plan (${active} for ${api})`, onclick: (e) => act(api, e.currentTarget, () => request('DELETE', `/dashboard/v1/subscriptions/${encodeURIComponent(api)}`), () => `Your ${api} plan is cancelled.`) }, 'Cancel plan') : null;
    return el('p', { class: 'current' }, now, ' ', cancel);
  }

  function section(entry) {
    const { api } = entry;
    const current = subscriptions[api];
    const billed = billedOf(api);
    const active = billed ? (billed.state === 'active' || billed.state === 'grace' ? billed.plan : null) : current && current.status === 'active' ? current.plan : null;
    const local = errorRegion();
    const status = statusRegion();
    if (notes.has(api)) fill(status, notes.get(api));
    parts.set(api, { local });
    const id = `sub-${api}`;
    return el('section', { class: 'card', 'aria-labelledby': id, 'data-api': api },
      el('h2', { id, tabindex: '-1' }, apiTitle(api)),
      currentLine(entry, current, billed),
      local,
      status,
      el('div', { class: 'scroll' }, el('table', { class: 'plans stacked' },
        el('caption', { class: 'visually-hidden' }, `${apiTitle(api)} plans`),
        el('thead', {}, el('tr', {}, ['Plan', 'Calls a month', 'Calls a second', 'Price a month', ''].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, entry.plans.filter((p) => p.offered || p.name === active).map((p) => el('tr', { class: p.name === active ? 'chosen' : '' },
          el('th', { scope: 'row', 'data-label': 'Plan' }, p.name),
          el('td', { 'data-label': 'Calls a month', class: 'num' }, int(p.monthly_quota)),
          el('td', { 'data-label': 'Calls a second', class: 'num' }, int(p.rate_per_second)),
          el('td', { 'data-label': 'Price a month', class: 'num' }, price(p.price, p.currency)),
          el('td', {}, planAction(api, p, active, billed)),
        ))),
      )),
    );
  }
  draw();
}

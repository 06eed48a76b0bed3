import { el, errorRegion, fill, heading, int, price, showError, statusRegion } from '../../shared/dom.js';
import { plans, request } from '../api.js';
import { session } from '../session.js';
import { apiTitle, requireSession } from './common.js';

export const title = 'Subscriptions';

// What a refusal of a paid plan leaves out: there is no payment provider yet.
function paidNote(err, api, plan) {
  if (err.status !== 402) return [];
  const account = session()?.account.id ?? 'your account id';
  return [
    ' ',
    el('span', {}, 'The portal cannot take payments yet. An operator can put your account on this plan: '),
    el('code', {}, `pnpm cli account subscribe ${account} ${api} ${plan}`),
  ];
}

/** Per API: the current plan, subscribing to a free plan at once, what a paid plan needs, cancelling. */
export async function render(main, ctx) {
  if (requireSession(main, ctx, title, 'subscribe to plans')) await renderSignedIn(main);
}

async function renderSignedIn(main) {
  const problem = errorRegion();
  const sections = el('div');
  main.append(heading(title), el('p', { class: 'lead' }, 'A plan covers every key of your account. Free plans start at once, without a card.'), problem, sections);
  const [table, who] = await Promise.all([plans(), request('GET', '/dashboard/v1/account')]);
  let subscriptions = (who.account ?? who).subscriptions ?? {};

  function draw() {
    fill(sections, table.map((entry) => section(entry)));
  }

  function section(entry) {
    const { api } = entry;
    const current = subscriptions[api];
    const active = current && current.status === 'active' ? current.plan : null;
    const local = errorRegion();
    const status = statusRegion();
    const id = `sub-${api}`;
    const choose = async (plan, button) => {
      button.disabled = true;
      showError(local, null);
      try {
        await request('PUT', `/dashboard/v1/subscriptions/${encodeURIComponent(api)}`, { plan });
        subscriptions = { ...subscriptions, [api]: { plan, status: 'active' } };
        draw();
        document.getElementById(id)?.focus();
      } catch (err) {
        showError(local, err, ...paidNote(err, api, plan));
        button.disabled = false;
      }
    };
    const cancel = async (button) => {
      button.disabled = true;
      try {
        await request('DELETE', `/dashboard/v1/subscriptions/${encodeURIComponent(api)}`);
        const { [api]: _gone, ...rest } = subscriptions;
        subscriptions = rest;
        draw();
        document.getElementById(id)?.focus();
      } catch (err) {
        showError(local, err);
        button.disabled = false;
      }
    };
    const now = active
      ? `Current plan: ${active}.`
      : current
        ? `Current plan: ${current.plan} (${current.status}).`
        : entry.playground_per_day > 0 ? `No plan: the playground gives ${entry.playground_per_day} test calls a day.` : 'No plan: calls are refused until you subscribe.';
    return el('section', { class: 'card', 'aria-labelledby': id, 'data-api': api },
      el('h2', { id, tabindex: '-1' }, apiTitle(api)),
      el('p', { class: 'current' }, now, ' ', active ? el('button', { type: 'button', class: 'secondary', 'aria-label': `Cancel plan (${active} for ${api})`, onclick: (e) => cancel(e.currentTarget) }, 'Cancel plan') : null),
      local,
      status,
      el('div', { class: 'scroll' }, el('table', { class: 'plans stacked' },
        el('caption', { class: 'visually-hidden' }, `${apiTitle(api)} plans`),
        el('thead', {}, el('tr', {}, ['Plan', 'Calls a month', 'Calls a second', 'Price a month', ''].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, entry.plans.map((p) => el('tr', { class: p.name === active ? 'chosen' : '' },
          el('th', { scope: 'row', 'data-label': 'Plan' }, p.name),
          el('td', { 'data-label': 'Calls a month', class: 'num' }, int(p.monthly_quota)),
          el('td', { 'data-label': 'Calls a second', class: 'num' }, int(p.rate_per_second)),
          el('td', { 'data-label': 'Price a month', class: 'num' }, price(p.price, p.currency)),
          el('td', {}, p.name === active
            ? el('strong', {}, 'Your plan')
            : el('button', { type: 'button', class: p.price > 0 ? 'secondary' : '', 'aria-label': `Subscribe to ${p.name} for ${api}`, onclick: (e) => choose(p.name, e.currentTarget) }, 'Subscribe')),
        ))),
      )),
    );
  }
  draw();
}

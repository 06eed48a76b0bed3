import { actThen, dateTime, el, errorRegion, fill, heading, int, price, showError, statusRegion } from '../../shared/dom.js';
import { confirmDialog } from '../../shared/dialog.js';
import { drawChart, historyTable, lastDays, seriesOf } from '../../shared/chart.js';
import { query, request } from '../api.js';
import { apiTitle, planText, shownKey } from '../format.js';
import { auditTable } from '../audit-table.js';

export const title = 'Account';

function keyState(key, now) {
  if (key.revoked_at) return { live: false, text: `Revoked ${dateTime(key.revoked_at)}` };
  if (key.expires_at && Date.parse(key.expires_at) <= now) return { live: false, text: 'Expired' };
  if (key.grace_until && Date.parse(key.grace_until) > now) return { live: true, grace: true, text: `Rolled; the old secret works until ${dateTime(key.grace_until)}` };
  return { live: true, text: 'Active' };
}

/** One account: who, its team's members and roles, its keys, plans and billing, usage, 30 days of calls, sign-ins and audit entries; and what operators may do to it. */
export async function render(main) {
  const id = decodeURIComponent(location.pathname.split('/').filter(Boolean).at(-1));
  const problem = errorRegion();
  const status = statusRegion();
  const body = el('div');
  main.append(heading(title), problem, status, body);

  const changeThen = actThen(problem, load, status);
  /** Does a change, shows the account as it is now, then says what happened (heard once the page shows it). */
  const act = (work, done) => changeThen(async () => {
    await work();
    return done;
  });

  function actions(a) {
    const buttons = [];
    if (a.status === 'active') {
      buttons.push(el('button', { type: 'button', class: 'danger', onclick: async () => {
        if (await confirmDialog(`Suspend ${a.email ?? a.id}?`, el('p', {}, 'Every key of this account is refused with 403 from the next call, until it is reactivated.'), 'Suspend account', true)) {
          await act(() => request('POST', `/accounts/${encodeURIComponent(a.id)}/suspend`), 'The account is suspended.');
        }
      } }, 'Suspend…'));
    } else {
      buttons.push(el('button', { type: 'button', onclick: async () => {
        if (await confirmDialog(`Reactivate ${a.email ?? a.id}?`, el('p', {}, 'Its keys work again from the next call.'), 'Reactivate account')) {
          await act(() => request('POST', `/accounts/${encodeURIComponent(a.id)}/reactivate`), 'The account is active again.');
        }
      } }, 'Reactivate…'));
    }
    if (a.email && !a.email_verified) {
      buttons.push(el('button', { type: 'button', class: 'secondary', onclick: async () => {
        if (await confirmDialog(`Mail a new proof code to ${a.email}?`, el('p', {}, 'The customer enters it to prove the address; until then only the playground is open to this account.'), 'Send the mail')) {
          await act(() => request('POST', `/accounts/${encodeURIComponent(a.id)}/verification`), `A new proof code was mailed to ${a.email}.`);
        }
      } }, 'Resend verification…'));
    }
    return el('div', { class: 'row actions' }, buttons);
  }

  function plansSection(data) {
    const a = data.account;
    const apiSelect = el('select', { id: 'grant-api' }, data.plans.map((p) => el('option', { value: p.api }, apiTitle(p.api))));
    const planSelect = el('select', { id: 'grant-plan' });
    const fillPlans = () => fill(planSelect, data.plans.find((p) => p.api === apiSelect.value).plans.map((p) => el('option', { value: p.name }, `${p.name}: ${int(p.monthly_quota)} calls a month, ${price(p.price, p.currency)}`)));
    apiSelect.addEventListener('change', fillPlans);
    fillPlans();
    const rows = data.plans.map(({ api }) => {
      const sub = a.subscriptions[api];
      return el('tr', { 'data-api': api },
        el('th', { scope: 'row', 'data-label': 'API' }, apiTitle(api)),
        el('td', { 'data-label': 'Plan' }, planText(sub)),
        el('td', { 'data-label': 'Actions' }, sub ? el('button', { type: 'button', class: 'secondary', 'aria-label': `Cancel the ${apiTitle(api)} subscription`, onclick: async () => {
          if (await confirmDialog(`Cancel ${apiTitle(api)} for ${a.email ?? a.id}?`, el('p', {}, `The ${sub.plan} plan ends now; the API’s playground (if it has one) applies again.`), 'Cancel subscription', true)) {
            await act(() => request('DELETE', `/accounts/${encodeURIComponent(a.id)}/subscriptions/${encodeURIComponent(api)}`), `The ${apiTitle(api)} subscription is cancelled.`);
          }
        } }, 'Cancel…') : '—'),
      );
    });
    return el('section', { class: 'card', 'aria-labelledby': 'plans-title' },
      el('h2', { id: 'plans-title' }, 'Subscriptions and billing'),
      el('div', { class: 'scroll' }, el('table', { class: 'stacked', id: 'subscriptions' },
        el('caption', { class: 'visually-hidden' }, 'Plans by API'),
        el('thead', {}, el('tr', {}, ['API', 'Plan', 'Actions'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, rows),
      )),
      el('form', { class: 'grant', onsubmit: async (event) => {
        event.preventDefault();
        const api = apiSelect.value;
        const plan = planSelect.value;
        if (await confirmDialog(`Grant ${plan} on ${apiTitle(api)}?`, el('p', {}, `${a.email ?? a.id} gets the ${plan} plan of ${apiTitle(api)} now, as a comp: granted by you, without payment, and shown so. It replaces the plan it has.`), 'Grant plan')) {
          await act(() => request('PUT', `/accounts/${encodeURIComponent(a.id)}/subscriptions/${encodeURIComponent(api)}`, { plan }), `${a.email ?? a.id} has the ${plan} plan of ${apiTitle(api)} (comp).`);
        }
      } },
        el('div', { class: 'field' }, el('label', { for: 'grant-api' }, 'API'), apiSelect),
        el('div', { class: 'field' }, el('label', { for: 'grant-plan' }, 'Plan'), planSelect),
        el('button', { type: 'submit' }, 'Grant plan…'),
      ),
      el('h3', {}, 'Billing'),
      data.billing
        ? el('dl', { class: 'facts', id: 'billing' }, el('dt', {}, 'State'), el('dd', {}, data.billing.state), Object.entries(data.billing.details).flatMap(([k, v]) => [el('dt', {}, k), el('dd', {}, String(v))]))
        : el('p', { id: 'billing' }, 'No paid plans on this server: nothing is billed, and plans granted here are comps.'),
    );
  }

  // Read-only here: members are added, moved and removed with tollgate team … or the admin API.
  function membersSection(data) {
    return el('section', { class: 'card', 'aria-labelledby': 'members-title' },
      el('h2', { id: 'members-title' }, 'Team members'),
      data.members.length === 0
        ? el('p', { class: 'muted', id: 'members' }, 'No members: nobody has signed in to this account since teams. tollgate team add adds one.')
        : el('div', { class: 'scroll' }, el('table', { class: 'stacked', id: 'members' },
          el('caption', { class: 'visually-hidden' }, 'The team’s members and their roles'),
          el('thead', {}, el('tr', {}, ['Person', 'Name', 'Role', 'Joined'].map((h) => el('th', { scope: 'col' }, h)))),
          el('tbody', {}, data.members.map((m) => el('tr', { 'data-person-id': m.person_id },
            el('th', { scope: 'row', 'data-label': 'Person' }, m.email ?? m.person_id),
            el('td', { 'data-label': 'Name' }, m.name ?? '—'),
            el('td', { 'data-label': 'Role', class: 'role' }, m.role),
            el('td', { 'data-label': 'Joined' }, dateTime(m.joined_at)),
          ))),
        )),
      el('p', { class: 'muted' }, 'Owners do everything; admins manage members and keys; billing pays; developers make keys and read usage.'),
    );
  }

  function keysSection(data) {
    const now = Date.now();
    const row = (key) => {
      const state = keyState(key, now);
      const buttons = [];
      if (state.grace) buttons.push(el('button', { type: 'button', class: 'secondary', 'aria-label': `End the grace period of ${key.name}`, onclick: async () => {
        if (await confirmDialog(`End the grace of ${key.name}?`, el('p', {}, 'The secret it had before its last roll stops working now; the current one keeps working.'), 'End grace', true)) {
          await act(() => request('POST', `/keys/${encodeURIComponent(key.id)}/end-grace`), `The old secret of ${key.name} no longer works.`);
        }
      } }, 'End grace…'));
      if (state.live) buttons.push(el('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${key.name}`, onclick: async () => {
        if (await confirmDialog(`Revoke ${key.name}?`, el('p', {}, 'Every secret of this key stops working at once, for good. Calls with it get 401.'), 'Revoke key', true)) {
          await act(() => request('POST', `/keys/${encodeURIComponent(key.id)}/revoke`), `${key.name} is revoked.`);
        }
      } }, 'Revoke…'));
      return el('tr', { 'data-key-id': key.id, class: state.live ? '' : 'dead' },
        el('th', { scope: 'row', 'data-label': 'Name' }, key.name),
        el('td', { 'data-label': 'Key' }, el('code', {}, shownKey(key))),
        el('td', { 'data-label': 'Created' }, dateTime(key.created_at)),
        el('td', { 'data-label': 'Last used' }, key.last_used_at ? dateTime(key.last_used_at) : 'never'),
        el('td', { 'data-label': 'Expires' }, key.expires_at ? dateTime(key.expires_at) : 'never'),
        el('td', { 'data-label': 'State', class: 'state' }, state.text),
        el('td', { 'data-label': 'Actions' }, el('div', { class: 'row' }, buttons)),
      );
    };
    return el('section', { class: 'card', 'aria-labelledby': 'keys-title' },
      el('h2', { id: 'keys-title' }, 'Keys'),
      data.keys.length === 0 ? el('p', { class: 'muted' }, 'No keys.') : el('div', { class: 'scroll' }, el('table', { class: 'stacked', id: 'keys' },
        el('caption', { class: 'visually-hidden' }, 'The account’s keys'),
        el('thead', {}, el('tr', {}, ['Name', 'Key', 'Created', 'Last used', 'Expires', 'State', 'Actions'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, data.keys.map(row)),
      )),
      data.more_keys ? el('p', { class: 'muted' }, 'More keys than shown: tollgate key list lists them all.') : null,
    );
  }

  function usageSection(data) {
    const days = lastDays(30);
    const charts = [];
    const section = el('section', { class: 'card', 'aria-labelledby': 'usage-title' },
      el('h2', { id: 'usage-title' }, 'Usage'),
      el('div', { class: 'scroll' }, el('table', { class: 'stacked', id: 'usage' },
        el('caption', { class: 'visually-hidden' }, 'Calls counted against each limit'),
        el('thead', {}, el('tr', {}, ['API', 'Plan', 'Used', 'Limit', 'Resets'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, data.usage.map((u) => el('tr', { 'data-api': u.api },
          el('th', { scope: 'row', 'data-label': 'API' }, apiTitle(u.api)),
          el('td', { 'data-label': 'Plan' }, u.window === 'month' ? u.plan : 'playground'),
          el('td', { 'data-label': 'Used', class: 'num' }, int(u.used)),
          el('td', { 'data-label': 'Limit', class: 'num' }, int(u.limit)),
          el('td', { 'data-label': 'Resets' }, dateTime(u.resets_at)),
        ))),
      )),
    );
    // The history also names each API a reload withdrew that the account called: its calls stay readable.
    const offered = new Set(data.plans.map((entry) => entry.api));
    for (const api of new Set([...offered, ...data.history.days.map((d) => d.api)])) {
      const series = seriesOf(data.history.days, api, days);
      const holder = el('div', { class: 'chart', role: 'img', 'aria-label': `${apiTitle(api)} calls per day` });
      section.append(el('h3', {}, `${apiTitle(api)}${offered.has(api) ? '' : ' (withdrawn)'}, the last 30 days`), holder, historyTable(apiTitle(api), api, days, series));
      charts.push(() => drawChart(holder, apiTitle(api), days, series));
    }
    return { section, draw: () => Promise.all(charts.map((draw) => draw())) };
  }

  async function load() {
    const data = await request('GET', `/accounts/${encodeURIComponent(id)}`);
    const a = data.account;
    document.title = `${a.email ?? a.name ?? a.id} · Tollgate console`;
    main.querySelector('h1').textContent = a.email ?? (a.name || a.id);
    const usage = usageSection(data);
    fill(body,
      el('section', { class: 'card', 'aria-labelledby': 'who-title' },
        el('h2', { id: 'who-title' }, 'Account'),
        el('dl', { class: 'facts', id: 'account' },
          el('dt', {}, 'Id'), el('dd', {}, el('code', {}, a.id)),
          el('dt', {}, 'Email'), el('dd', {}, a.email ? `${a.email} (${a.email_verified ? 'proven' : 'not proven'})` : 'none'),
          el('dt', {}, 'Name'), el('dd', {}, a.name || '—'),
          el('dt', {}, 'Status'), el('dd', { id: 'status' }, a.status),
          el('dt', {}, 'Created'), el('dd', {}, dateTime(a.created_at)),
        ),
        actions(a),
      ),
      membersSection(data),
      plansSection(data),
      keysSection(data),
      usage.section,
      el('section', { class: 'card', 'aria-labelledby': 'sign-ins-title' },
        el('h2', { id: 'sign-ins-title' }, 'Sign-ins'),
        data.sign_ins.length === 0 ? el('p', { class: 'muted' }, 'No portal sign-in kept in the audit log.') : el('ul', { id: 'sign-ins' }, data.sign_ins.map((s) => el('li', {}, `${dateTime(s.at)} from ${s.from ?? 'an unknown address'}`))),
      ),
      el('section', { class: 'card', 'aria-labelledby': 'audit-title' },
        el('h2', { id: 'audit-title' }, 'Audit log'),
        el('p', {}, el('a', { href: `/admin/audit${query({ account_id: a.id })}` }, 'Every entry of this account'), ' · ', el('a', { href: `/admin/console/v1/audit/export${query({ account_id: a.id })}`, download: `tollgate-audit-${a.id}.jsonl` }, 'Export as JSON lines')),
        data.audit.length === 0 ? el('p', { class: 'muted' }, 'No entries.') : auditTable('account-audit', 'Changes made to this account, newest first', data.audit, false),
      ),
    );
    try {
      await usage.draw();
    } catch (err) {
      showError(problem, err);
    }
  }

  await load();
}

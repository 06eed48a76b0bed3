import { actThen, dateTime, el, errorRegion, fill, heading, showError, statusRegion } from '../../shared/dom.js';
import { confirmDialog } from '../../shared/dialog.js';
import { request } from '../api.js';
import { secretBox } from '../secret-box.js';
import { forget, remember } from '../secrets.js';
import { may, role } from '../session.js';
import { requireSession } from './common.js';

export const title = 'Keys';

const GRACES = [
  [0, 'No grace: the old secret stops now'],
  [3600, '1 hour'],
  [86400, '24 hours'],
  [604800, '7 days'],
];

async function allKeys() {
  const items = [];
  let cursor;
  do {
    const page = await request('GET', `/dashboard/v1/keys?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    items.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

function stateOf(key, now) {
  if (key.revoked_at) return { live: false, text: `Revoked ${dateTime(key.revoked_at)}` };
  if (key.expires_at && Date.parse(key.expires_at) <= now) return { live: false, text: 'Expired' };
  if (key.grace_until && Date.parse(key.grace_until) > now) return { live: true, grace: true, text: `Rolled; the old secret works until ${dateTime(key.grace_until)}` };
  return { live: true, text: 'Active' };
}

/** Create, list, roll, end a roll's grace and revoke the account's keys. */
export async function render(main, ctx) {
  if (!requireSession(main, ctx, title, 'create and manage your API keys')) return;
  const problem = errorRegion();
  const status = statusRegion();
  const secretArea = el('div', { class: 'secret-area' });
  const list = el('div', { class: 'key-list' });
  // Keys are the team's: every member sees them; making and changing them is the keys.write roles' (docs/teams.md#roles).
  const writes = may('keys.write');
  main.append(heading(title), el('p', { class: 'lead' }, `Send a key’s secret in the ${ctx.keyHeader} header. Every key of your team shares its plans and quotas.`), problem, status, secretArea);
  if (!writes) main.append(el('p', { class: 'note', id: 'role-note' }, `Your role in this team (${role()}) cannot create or change keys: an owner, an admin or a developer of the team can.`));

  function showSecret(key, what) {
    remember(key.id, key.name, key.key, `${key.prefix}…${key.last4}`);
    fill(secretArea, secretBox({
      id: 'secret-title',
      heading: `${what}: copy the secret now`,
      note: 'It is shown this once. The portal keeps it only in this tab’s memory (for Try it) and forgets it when you reload or sign out.',
      codeId: 'new-secret',
      secret: key.key,
      extra: [el('a', { class: 'button secondary', href: `${ctx.pathOf('try-it')}?key=latest` }, 'Try it with this key')],
      done: () => { secretArea.replaceChildren(); list.querySelector('h2')?.focus(); },
    }));
    secretArea.querySelector('h2').focus();
  }

  const act = actThen(problem, () => refresh(), status);

  function row(key, now) {
    const state = stateOf(key, now);
    const actions = [];
    if (state.live && writes) {
      actions.push(el('button', { type: 'button', class: 'secondary', 'aria-label': `Roll ${key.name}`, onclick: async () => {
        const select = el('select', { id: 'grace' }, GRACES.map(([seconds, text]) => el('option', { value: String(seconds), selected: seconds === 86400 }, text)));
        const ok = await confirmDialog(`Roll ${key.name}?`, el('div', { class: 'stack' }, el('p', {}, 'It gets a new secret. Until the grace period ends, the old one keeps working too.'), el('label', { for: 'grace' }, 'Grace period for the old secret'), select), 'Roll key');
        if (ok) await act(async () => {
          const rolled = await request('POST', `/dashboard/v1/keys/${encodeURIComponent(key.id)}/roll`, { grace_seconds: Number(select.value) });
          showSecret(rolled, `${key.name} rolled`);
        });
      } }, 'Roll…'));
      if (state.grace) actions.push(el('button', { type: 'button', class: 'secondary', 'aria-label': `End the grace period of ${key.name}`, onclick: () => act(async () => {
        await request('POST', `/dashboard/v1/keys/${encodeURIComponent(key.id)}/end-grace`);
        return `The old secret of ${key.name} no longer works.`;
      }) }, 'End grace'));
      actions.push(el('button', { type: 'button', class: 'danger', 'aria-label': `Revoke ${key.name}`, onclick: async () => {
        const ok = await confirmDialog(`Revoke ${key.name}?`, el('p', {}, 'Every secret of this key stops working at once, for good. Calls with it get 401.'), 'Revoke key', true);
        if (ok) await act(async () => {
          await request('DELETE', `/dashboard/v1/keys/${encodeURIComponent(key.id)}`);
          forget(key.id);
          return `${key.name} is revoked.`;
        });
      } }, 'Revoke…'));
    }
    return el('tr', { 'data-key-id': key.id, class: state.live ? '' : 'dead' },
      el('th', { scope: 'row', 'data-label': 'Name' }, key.name),
      el('td', { 'data-label': 'Key' }, el('code', {}, `${key.prefix}…${key.last4}`)),
      el('td', { 'data-label': 'Created' }, dateTime(key.created_at)),
      // Who made it (keys made before teams have no record of it).
      el('td', { 'data-label': 'Created by', class: 'creator' }, key.created_by ? key.created_by.email : 'not recorded'),
      el('td', { 'data-label': 'Last used' }, key.last_used_at ? dateTime(key.last_used_at) : 'never'),
      el('td', { 'data-label': 'Expires' }, key.expires_at ? dateTime(key.expires_at) : 'never'),
      el('td', { 'data-label': 'Status', class: 'state' }, state.text),
      writes ? el('td', { 'data-label': 'Actions' }, el('div', { class: 'row' }, actions)) : null,
    );
  }

  async function refresh() {
    try {
      const keys = await allKeys();
      const now = Date.now();
      fill(list,
        el('h2', { tabindex: '-1' }, 'Your keys'),
        keys.length === 0
          ? el('p', { class: 'muted' }, 'No keys yet: create one above.')
          : el('div', { class: 'scroll' }, el('table', { class: 'keys stacked' },
            el('caption', { class: 'visually-hidden' }, 'Your API keys'),
            el('thead', {}, el('tr', {}, ['Name', 'Key', 'Created', 'Created by', 'Last used', 'Expires', 'Status', writes ? 'Actions' : null].filter(Boolean).map((h) => el('th', { scope: 'col' }, h)))),
            el('tbody', {}, keys.map((k) => row(k, now))),
          )),
      );
    } catch (err) {
      showError(problem, err);
    }
  }

  const name = el('input', { id: 'key-name', name: 'name', required: true, maxlength: '100', autocomplete: 'off', placeholder: 'e.g. production server' });
  const expires = el('input', { id: 'key-expires', name: 'expires', type: 'date', 'aria-describedby': 'expires-help' });
  const create = el('button', { type: 'submit' }, 'Create key');
  // Node.append would print a skipped (null) part as the word "null".
  main.append(...[
    !writes ? null : el('section', { class: 'card', 'aria-labelledby': 'create-title' },
      el('h2', { id: 'create-title' }, 'Create a key'),
      el('form', { class: 'create-key', novalidate: true, onsubmit: async (event) => {
        event.preventDefault();
        if (!name.value.trim()) {
          showError(problem, new Error('Give the key a name, such as where it is used.'));
          name.focus();
          return;
        }
        create.disabled = true;
        await act(async () => {
          const body = { name: name.value.trim() };
          // The key stops working at the start of the chosen UTC day.
          if (expires.value) body.expires_at = `${expires.value}T00:00:00Z`;
          const created = await request('POST', '/dashboard/v1/keys', body);
          name.value = '';
          expires.value = '';
          showSecret(created, `${created.name} created`);
        });
        create.disabled = false;
      } },
        el('div', { class: 'field' }, el('label', { for: 'key-name' }, 'Name'), name),
        el('div', { class: 'field' }, el('label', { for: 'key-expires' }, 'Expires (optional)'), expires, el('span', { id: 'expires-help', class: 'hint' }, 'At 00:00 UTC that day; empty: never.')),
        create,
      ),
    ),
    list,
  ].filter(Boolean));
  await refresh();
}

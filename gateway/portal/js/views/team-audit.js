import { dateTime, el, fill, showError, errorRegion } from '../../shared/dom.js';
import { request } from '../api.js';

// What each entry did, in words; an action without words here is shown as it is named.
const WORDS = {
  'team.invite': 'invited',
  'team.invite_revoke': 'revoked the invitation of',
  'team.invite_accept': 'joined the team',
  'team.member_remove': 'removed',
  'team.member_leave': 'left the team',
  'team.role_change': 'changed the role of',
  'team.owner_transfer': 'handed ownership to',
  'key.create': 'created a key',
  'key.roll': 'rolled a key',
  'key.end_grace': 'ended a key’s grace',
  'key.revoke': 'revoked a key',
  'account.sign_in': 'signed in',
  'billing.checkout': 'started paying for',
  'billing.change': 'changed the paid plan of',
  'billing.cancel': 'cancelled the paid plan of',
  'billing.keep': 'kept the paid plan of',
  'subscription.set': 'plan set for',
  'subscription.cancel': 'plan cancelled for',
};

/** The team's newest changes and who made each (owners and admins: GET /dashboard/v1/team/audit). */
export function auditSection() {
  const problem = errorRegion();
  const body = el('div');
  const section = el('section', { class: 'card', 'aria-labelledby': 'audit-title' }, el('h2', { id: 'audit-title' }, 'Recent changes'), problem, body);
  async function refresh() {
    try {
      const { entries, people } = await request('GET', '/dashboard/v1/team/audit');
      const who = (actor) => (actor.type === 'customer' ? people[actor.id] ?? (actor.id.startsWith('per_') ? 'a former member' : 'a key of the team') : actor.type === 'operator' ? 'Tollgate staff' : `Tollgate (${actor.id})`);
      const what = (e) => {
        const target = e.target && e.target.startsWith('per_') ? people[e.target] ?? 'a former member' : e.details?.email ?? e.target;
        const plan = e.details?.plan ? ` (${e.details.plan})` : '';
        const words = WORDS[e.action] ?? e.action;
        return e.action === 'team.invite_accept' || e.action === 'team.member_leave' || e.action === 'account.sign_in' ? words : `${words} ${target ?? ''}${plan}`.trim();
      };
      fill(body, entries.length === 0 ? el('p', { class: 'muted' }, 'No changes yet.') : el('div', { class: 'scroll' }, el('table', { class: 'stacked team-table', id: 'team-audit' },
        el('caption', { class: 'visually-hidden' }, 'The team’s newest changes'),
        el('thead', {}, el('tr', {}, ['When', 'Who', 'What'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, entries.map((e) => el('tr', { 'data-action': e.action },
          el('td', { 'data-label': 'When' }, dateTime(e.at)),
          el('th', { scope: 'row', 'data-label': 'Who' }, who(e.actor)),
          el('td', { 'data-label': 'What' }, what(e)),
        ))),
      )));
    } catch (err) {
      showError(problem, err);
    }
  }
  return { section, refresh };
}

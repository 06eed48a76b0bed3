import { actThen, dateTime, el, errorRegion, fill, heading, showError, statusRegion } from '../../shared/dom.js';
import { confirmDialog } from '../../shared/dialog.js';
import { request } from '../api.js';
import { may, person, role, session, signedIn, teams } from '../session.js';
import { requireSession } from './common.js';
import { acceptForm, takeJoined } from './invitation.js';
import { auditSection } from './team-audit.js';

export const title = 'Team';

const ROLE_WORDS = {
  owner: 'everything, members and money included',
  admin: 'members and keys, no money',
  billing: 'plans and the card, no keys',
  developer: 'keys, webhooks and usage, no money, no members',
};

// Set when this tab left the team: ending the session re-renders the page, which then says so.
let left = null;

function showLeft(main, ctx) {
  main.replaceChildren(
    heading('You left the team'),
    el('p', { role: 'status' }, `You are no longer a member of ${left}; this browser is signed out of it. Its keys stay the team’s.`),
    el('p', {}, el('a', { class: 'button', href: ctx.pathOf('sign-in') }, 'Sign in to your other teams')),
  );
  main.querySelector('h1').focus();
}

/** Members and their roles, invitations, leaving; changes are offered to the roles that may make them. */
export async function render(main, ctx) {
  if (left && !session()) {
    showLeft(main, ctx);
    left = null;
    return;
  }
  if (!requireSession(main, ctx, title, 'see your team and invite people')) return;
  const here = teams().find((t) => t.current);
  const me = person();
  const manages = may('members.manage');
  const owner = role() === 'owner';
  const problem = errorRegion();
  const status = statusRegion();
  const members = el('section', { class: 'card', 'aria-labelledby': 'members-title' });
  const pending = el('section', { class: 'card', 'aria-labelledby': 'invitations-title' });
  const act = actThen(problem, () => refresh(), status);
  const teamName = here?.name ?? session().account.name ?? session().account.id;
  main.append(
    heading(title),
    el('p', { class: 'lead' }, `The people of ${teamName}, each with a role. Keys, plans, usage and the card are the team’s: they stay when a member leaves.`),
    role() ? el('p', { id: 'your-role' }, 'Your role: ', el('strong', {}, role()), ` (${ROLE_WORDS[role()]}).`) : '',
    problem,
    status,
  );
  const joined = takeJoined();
  if (joined) fill(status, joined);
  // Roles a person may hand out: an owner any; an admin any but owner.
  const grantable = Object.keys(ROLE_WORDS).filter((r) => owner || r !== 'owner');
  const roleSelect = (id, chosen) => el('select', { id }, grantable.map((r) => el('option', { value: r, selected: r === chosen }, r)));

  function memberRow(m, byId) {
    const self = me && m.person_id === me.id;
    const name = m.email ?? m.person_id;
    // An admin changes and removes members, not owners; nobody removes themselves here (that is leaving).
    const editable = manages && !self && (owner || m.role !== 'owner');
    const actions = [];
    if (editable) {
      const select = roleSelect(`role-${m.person_id}`, m.role);
      actions.push(el('label', { for: select.id, class: 'visually-hidden' }, `Role of ${name}`), select,
        el('button', { type: 'button', class: 'secondary', 'aria-label': `Change role of ${name}`, onclick: () => act(async () => {
          if (select.value === m.role) return;
          const changed = await request('PUT', `/dashboard/v1/team/members/${encodeURIComponent(m.person_id)}`, { role: select.value });
          return `${name} is ${changed.role} now.`;
        }) }, 'Change role'),
        el('button', { type: 'button', class: 'danger', 'aria-label': `Remove ${name}`, onclick: async () => {
          const ok = await confirmDialog(`Remove ${name} from the team?`, el('p', {}, 'They are signed out of this team at once. The keys they made stay the team’s and keep working.'), 'Remove member', true);
          if (ok) await act(async () => {
            await request('DELETE', `/dashboard/v1/team/members/${encodeURIComponent(m.person_id)}`);
            return `${name} is no longer a member of the team.`;
          });
        } }, 'Remove…'));
    }
    return el('tr', { 'data-person': m.person_id },
      el('th', { scope: 'row', 'data-label': 'Member' }, name, self ? ' (you)' : ''),
      el('td', { 'data-label': 'Role', class: 'member-role' }, m.role),
      el('td', { 'data-label': 'Joined' }, dateTime(m.joined_at)),
      el('td', { 'data-label': 'Invited by' }, m.invited_by ? byId.get(m.invited_by) ?? 'a former member' : '—'),
      manages ? el('td', { 'data-label': 'Actions' }, el('div', { class: 'row' }, actions)) : null,
    );
  }

  function invitationRow(inv, byId, now) {
    const lapsed = Date.parse(inv.expires_at) <= now;
    return el('tr', { 'data-invitation': inv.id },
      el('th', { scope: 'row', 'data-label': 'Address' }, inv.email),
      el('td', { 'data-label': 'Role' }, inv.role),
      el('td', { 'data-label': 'Invited by' }, byId.get(inv.invited_by) ?? 'a former member'),
      el('td', { 'data-label': lapsed ? 'Expired' : 'Expires' }, lapsed ? `Expired ${dateTime(inv.expires_at)}` : dateTime(inv.expires_at)),
      manages ? el('td', { 'data-label': 'Actions' }, el('button', { type: 'button', class: 'secondary', 'aria-label': `Revoke the invitation of ${inv.email}`, onclick: async () => {
        const ok = await confirmDialog(`Revoke the invitation of ${inv.email}?`, el('p', {}, 'Its link stops working at once.'), 'Revoke invitation', true);
        if (ok) await act(async () => {
          await request('DELETE', `/dashboard/v1/team/invitations/${encodeURIComponent(inv.id)}`);
          return `The invitation of ${inv.email} is revoked.`;
        });
      } }, 'Revoke…')) : null,
    );
  }

  const table = (caption, heads, rows) => el('div', { class: 'scroll' }, el('table', { class: 'stacked team-table' },
    el('caption', { class: 'visually-hidden' }, caption),
    el('thead', {}, el('tr', {}, heads.filter(Boolean).map((h) => el('th', { scope: 'col' }, h)))),
    el('tbody', {}, rows),
  ));

  // The log is the owners' and admins' (audit.read): others are not offered it.
  const audit = may('audit.read') ? auditSection() : null;

  async function refresh() {
    void audit?.refresh();
    try {
      const [{ members: list }, { invitations }] = await Promise.all([request('GET', '/dashboard/v1/team/members'), request('GET', '/dashboard/v1/team/invitations')]);
      const byId = new Map(list.map((m) => [m.person_id, m.email ?? m.person_id]));
      const now = Date.now();
      fill(members, el('h2', { id: 'members-title', tabindex: '-1' }, `Members (${list.length})`), table('The team’s members', ['Member', 'Role', 'Joined', 'Invited by', manages ? 'Actions' : null], list.map((m) => memberRow(m, byId))));
      fill(pending, el('h2', { id: 'invitations-title' }, `Pending invitations (${invitations.length})`),
        invitations.length === 0 ? el('p', { class: 'muted' }, 'None.') : table('Pending invitations', ['Address', 'Role', 'Invited by', 'Expires', manages ? 'Actions' : null], invitations.map((inv) => invitationRow(inv, byId, now))));
    } catch (err) {
      showError(problem, err);
    }
  }

  main.append(manages ? inviteSection(roleSelect, act) : el('p', { class: 'note', id: 'role-note' }, `Your role in this team (${role()}) cannot invite or remove members: an owner or an admin of the team can.`), members, pending, leaveSection(main, ctx, teamName, problem), el('section', { class: 'card', 'aria-labelledby': 'code-title' }, el('h2', { id: 'code-title' }, 'Join another team'), acceptForm(ctx)));
  if (audit) pending.after(audit.section);
  await refresh();
}

/** Invite an address with a role: the mail carries a one-time link. */
function inviteSection(roleSelect, act) {
  const email = el('input', { id: 'invite-email', name: 'email', type: 'email', autocomplete: 'off', required: true, maxlength: '254' });
  const select = roleSelect('invite-role', 'developer');
  const button = el('button', { type: 'submit' }, 'Send invitation');
  return el('section', { class: 'card', 'aria-labelledby': 'invite-title' },
    el('h2', { id: 'invite-title' }, 'Invite someone'),
    el('form', { class: 'stack', novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      button.disabled = true;
      await act(async () => {
        if (!email.checkValidity() || !email.value.trim()) {
          email.focus();
          throw new Error('Enter the address to invite, such as someone@example.com.');
        }
        const sent = await request('POST', '/dashboard/v1/team/invitations', { email: email.value.trim(), role: select.value });
        email.value = '';
        return `Invitation sent to ${sent.email} as ${sent.role}. It works once, until ${dateTime(sent.expires_at)}.`;
      });
      button.disabled = false;
    } },
      el('div', { class: 'field' }, el('label', { for: 'invite-email' }, 'Email address'), email),
      el('div', { class: 'field' }, el('label', { for: 'invite-role' }, 'Role'), select),
      el('p', { class: 'hint' }, 'They are mailed a link, and accept by signing in as this address.'),
      el('div', {}, button),
    ));
}

/** Leave the team (the last owner is refused, with the server's reason). */
function leaveSection(main, ctx, teamName, problem) {
  return el('section', { class: 'card danger-zone', 'aria-labelledby': 'leave-title' },
    el('h2', { id: 'leave-title' }, 'Leave the team'),
    el('p', {}, 'You lose access to its keys, plans and usage; they stay the team’s. A team keeps at least one owner.'),
    el('button', { type: 'button', class: 'danger', onclick: async () => {
      const ok = await confirmDialog(`Leave ${teamName}?`, el('p', {}, 'This browser is signed out of the team at once. To come back, a member must invite you again.'), 'Leave team', true);
      if (!ok) return;
      showError(problem, null);
      try {
        await request('POST', '/dashboard/v1/team/leave', {});
        left = teamName;
        await signedIn(null);
      } catch (err) {
        showError(problem, err);
      }
    } }, 'Leave team…'));
}

import { el, errorRegion, fill, heading, statusRegion, within } from '../../shared/dom.js';
import { request } from '../api.js';
import { person, session, signOut, switchTeam } from '../session.js';

export const title = 'Invitation';

// The code of the mail's link, kept in this module's memory only: the page takes it out of the
// address bar, and signing in happens in place (History API), so it is still here afterwards.
let held = null;
// What the Team page's code form joined, said by the Team page it opens.
let joinedNote = null;

/** The note of a team just joined with a code, once. */
export function takeJoined() {
  const note = joinedNote;
  joinedNote = null;
  return note;
}

/** Uses an invitation code as the signed-in person, then opens its team; resolves to what was joined. */
async function accept(code) {
  const joined = await request('POST', '/dashboard/v1/team/invitations/accept', { code });
  await switchTeam(joined.team.id);
  return joined;
}

const joinedText = (joined) => `You joined ${joined.team.name} as ${joined.role}. The portal shows this team now; switch teams in the header.`;

/** A form taking an invitation's code (the mail without a link says to enter it on the Team page). */
export function acceptForm(ctx) {
  const problem = errorRegion();
  const input = el('input', { id: 'invitation-code', name: 'code', autocomplete: 'off', required: true, maxlength: '200', spellcheck: 'false' });
  const button = el('button', { type: 'submit', class: 'secondary' }, 'Join the team');
  return el('form', { class: 'stack', novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    button.disabled = true;
    await within(problem, async () => {
      const code = input.value.trim();
      if (!code) throw new Error('Enter the code from the invitation mail.');
      joinedNote = joinedText(await accept(code));
      ctx.navigate(ctx.pathOf('team'));
    });
    button.disabled = false;
  } },
    el('p', {}, 'An invitation mail without a link carries a code: enter it here, signed in as the address it was sent to.'),
    el('div', { class: 'field' }, el('label', { for: 'invitation-code' }, 'Invitation code'), input),
    problem, el('div', {}, button));
}

/** The invitation mail's link: sign in as the invited address, then accept. */
export async function render(main, ctx) {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get('code');
  if (fromLink) {
    held = fromLink;
    history.replaceState(null, '', location.pathname);
  }
  main.append(heading(title));
  if (!held) {
    main.append(el('p', {}, 'This page accepts an invitation from the link in its mail, which was not opened here (or was used already). Open the link from the mail again, or enter its code on the ', el('a', { href: ctx.pathOf('team') }, 'Team page'), '.'));
    return;
  }
  if (!session()) {
    main.append(
      ctx.ended ? el('p', { class: 'error', role: 'alert' }, 'Your session has ended. Sign in again to accept the invitation.') : '',
      el('p', { class: 'lead' }, 'You were invited to a team on Tollgate. Sign in as the address the invitation was sent to, then accept it here. A new address gets its account as it signs in.'),
      el('p', {}, el('a', { class: 'button', href: `${ctx.pathOf('sign-in')}?next=${encodeURIComponent(ctx.pathOf('invitation'))}` }, 'Sign in to accept')),
    );
    return;
  }
  const problem = errorRegion();
  const status = statusRegion();
  const email = person()?.email ?? session().account.email;
  const button = el('button', { type: 'button', onclick: async () => {
    button.disabled = true;
    await within(problem, async () => {
      const joined = await accept(held);
      held = null;
      fill(area, el('p', {}, el('a', { class: 'button', href: ctx.pathOf('keys') }, 'Go to the team’s keys'), ' ', el('a', { href: ctx.pathOf('team') }, 'See its members')));
      fill(status, joinedText(joined));
    });
    button.disabled = false;
  } }, 'Accept the invitation');
  const other = el('button', { type: 'button', class: 'secondary', onclick: async () => {
    await signOut().catch(() => undefined);
    ctx.navigate(`${ctx.pathOf('sign-in')}?next=${encodeURIComponent(ctx.pathOf('invitation'))}`);
  } }, 'Sign in as another address');
  const area = el('div', { class: 'row' }, button, other);
  main.append(el('p', { class: 'lead' }, `You are signed in as ${email}. The invitation works only for the address it was sent to.`), problem, status, area);
}

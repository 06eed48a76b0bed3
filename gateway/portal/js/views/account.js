import { actThen, dateTime, el, errorRegion, fill, heading, showError, statusRegion } from '../../shared/dom.js';
import { confirmDialog } from '../../shared/dialog.js';
import { fieldForm, sixDigits } from '../../shared/form.js';
import { request } from '../api.js';
import { loadSession, may, role, session, signedIn } from '../session.js';
import { requireSession } from './common.js';

export const title = 'Account';

// Set when this tab deleted the account: ending the session re-renders the page, which then says so.
let deleted = false;

function showDeleted(main, ctx) {
  main.replaceChildren(
    heading('Account deleted'),
    el('p', { role: 'status' }, 'Your account is deleted: its keys no longer work and you are signed out. Signing in with the same address later makes a new, empty account.'),
    el('p', {}, el('a', { href: ctx.pathOf('catalogue') }, 'Back to the catalogue')),
  );
  main.querySelector('h1').focus();
}

/** A form asking for the 6-digit code mailed to `email`, then running `work(code)`. */
function codeForm(id, email, what, work, cancel) {
  const problem = errorRegion();
  const input = el('input', { id, name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: '6', required: true, 'aria-describedby': `${id}-help` });
  const button = el('button', { type: 'submit' }, what);
  const form = fieldForm(
    { field: input, problem, button, check: sixDigits, work: (value) => work(value.replace(/\s/g, '')) },
    el('p', { id: `${id}-help` }, `We sent a 6-digit code to ${email}. It works for 15 minutes.`),
    el('label', { for: id }, 'Code from the mail'),
    input,
    problem,
    el('div', { class: 'row' }, button, el('button', { type: 'button', class: 'secondary', onclick: cancel }, 'Cancel')),
  );
  return { form, input };
}

/** The address: a new one is proven by a code mailed to it; the old one is told, other sessions end. */
function emailSection(status, changed) {
  const area = el('div');
  const section = el('section', { class: 'card', 'aria-labelledby': 'email-title' }, el('h2', { id: 'email-title' }, 'Email address'), area);
  function start() {
    const problem = errorRegion();
    const input = el('input', { id: 'new-email', name: 'email', type: 'email', autocomplete: 'email', required: true, maxlength: '254', 'aria-describedby': 'new-email-help' });
    const button = el('button', { type: 'submit' }, 'Send a code to the new address');
    fill(area,
      el('p', {}, 'You sign in as ', el('strong', { class: 'current-email' }, session().account.email ?? 'no address'), '.'),
      fieldForm(
        { field: input, problem, button, check: () => (input.checkValidity() ? undefined : 'Enter an email address, such as you@example.com.'), work: async (value) => {
          const sent = await request('POST', '/dashboard/v1/account/email', { email: value });
          confirm(sent.email);
        } },
        el('label', { for: 'new-email' }, 'New email address'),
        input,
        el('p', { id: 'new-email-help', class: 'hint' }, 'The change is made when you enter the code we mail there. Your current address is told, and your other sessions are signed out.'),
        problem,
        button,
      ),
    );
  }
  function confirm(email) {
    const { form, input } = codeForm('email-code', email, 'Change address', async (code) => {
      const done = await request('POST', '/dashboard/v1/account/email/confirm', { email, code });
      await loadSession();
      fill(status, `Your address is now ${done.account.email}. ${done.signed_out === 1 ? '1 other session was' : `${done.signed_out} other sessions were`} signed out.`);
      start();
      await changed();
    }, () => start());
    fill(area, form);
    input.focus();
  }
  start();
  return section;
}

/** The account's sessions: which device, when it began and was last used; sign out one or all others. */
function sessionsSection(status, problem) {
  const area = el('div');
  const section = el('section', { class: 'card', 'aria-labelledby': 'sessions-title' }, el('h2', { id: 'sessions-title', tabindex: '-1' }, 'Signed-in sessions'), area);
  const act = actThen(problem, () => refresh(), status);
  async function refresh() {
    const { sessions } = await request('GET', '/dashboard/v1/account/sessions');
    const others = sessions.filter((s) => !s.current);
    fill(area,
      el('p', { class: 'lead' }, 'Every browser signed in to your account. Sign out any you do not recognise.'),
      el('div', { class: 'scroll' }, el('table', { class: 'sessions stacked' },
        el('caption', { class: 'visually-hidden' }, 'Signed-in sessions'),
        el('thead', {}, el('tr', {}, ['Device', 'Signed in', 'Last seen', 'Ends', 'Actions'].map((h) => el('th', { scope: 'col' }, h)))),
        el('tbody', {}, sessions.map((s) => el('tr', { 'data-session-id': s.id },
          el('th', { scope: 'row', 'data-label': 'Device' }, s.device, s.current ? el('span', { class: 'muted' }, ' (this browser)') : null),
          el('td', { 'data-label': 'Signed in' }, dateTime(s.created_at)),
          el('td', { 'data-label': 'Last seen' }, dateTime(s.last_seen_at)),
          el('td', { 'data-label': 'Ends' }, dateTime(s.expires_at)),
          el('td', { 'data-label': 'Actions' }, s.current ? '—' : el('button', { type: 'button', class: 'secondary', 'aria-label': `Sign out ${s.device}, signed in ${dateTime(s.created_at)}`, onclick: () => act(async () => {
            await request('DELETE', `/dashboard/v1/account/sessions/${encodeURIComponent(s.id)}`);
            return `${s.device} is signed out.`;
          }) }, 'Sign out')),
        ))),
      )),
      others.length > 0
        ? el('button', { type: 'button', class: 'secondary', onclick: () => act(async () => {
          const { signed_out: count } = await request('DELETE', '/dashboard/v1/account/sessions');
          return `${count === 1 ? '1 other session' : `${count} other sessions`} signed out.`;
        }) }, 'Sign out all other sessions')
        : el('p', { class: 'muted' }, 'No other browser is signed in.'),
    );
  }
  return { section, refresh };
}

/** Downloads everything kept about the account as one JSON file. */
async function downloadExport(status) {
  const data = await request('GET', '/dashboard/v1/account/export');
  const url = URL.createObjectURL(new Blob([`${JSON.stringify(data, null, 2)}\n`], { type: 'application/json' }));
  const link = el('a', { href: url, download: `tollgate-account-${data.account.id}.json`, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  fill(status, 'Your data is downloading as a JSON file.');
}

/** Export, then deletion confirmed by a mailed code. */
function dataSections(main, ctx, status, problem) {
  const exportButton = el('button', { type: 'button', class: 'secondary', onclick: async () => {
    showError(problem, null);
    exportButton.disabled = true;
    try {
      await downloadExport(status);
    } catch (err) {
      showError(problem, err);
    }
    exportButton.disabled = false;
  } }, 'Download your data (JSON)');
  const exportSection = el('section', { class: 'card', 'aria-labelledby': 'export-title' },
    el('h2', { id: 'export-title' }, 'Your data'),
    el('p', {}, 'One JSON file with everything kept about your account: the account, its keys (never their secrets), subscriptions, usage history, billing and the log of changes.'),
    exportButton,
  );
  const area = el('div');
  const deleteSection = el('section', { class: 'card danger-zone', 'aria-labelledby': 'delete-title' }, el('h2', { id: 'delete-title' }, 'Delete account'), area);
  function start() {
    const button = el('button', { type: 'button', class: 'danger', onclick: async () => {
      const ok = await confirmDialog('Delete your account?', el('div', { class: 'stack' },
        el('p', {}, 'Its keys stop working at once, paid plans are canceled, you are signed out everywhere, and its data is erased. This cannot be undone.'),
        el('p', {}, 'Download your data first if you want to keep it. We mail a code to confirm.')), 'Mail me a code', true);
      if (!ok) return;
      showError(problem, null);
      try {
        const sent = await request('POST', '/dashboard/v1/account/delete', {});
        confirm(sent.email);
      } catch (err) {
        showError(problem, err);
      }
    } }, 'Delete account…');
    fill(area, el('p', {}, 'Deleting the account revokes its keys, cancels its paid plans and erases its data. Usage stays only in the server’s totals, which name no one.'), button);
  }
  function confirm(email) {
    const { form, input } = codeForm('delete-code', email, 'Delete my account', async (code) => {
      await request('POST', '/dashboard/v1/account/delete/confirm', { code });
      deleted = true;
      showDeleted(main, ctx);
      signedIn(null);
    }, () => start());
    fill(area, form);
    input.focus();
  }
  start();
  return [exportSection, deleteSection];
}

/** Account settings: the address, signed-in sessions, the data export and deletion. */
export async function render(main, ctx) {
  if (deleted && !session()) {
    deleted = false;
    showDeleted(main, ctx);
    return;
  }
  if (!requireSession(main, ctx, title, 'manage your account')) return;
  const problem = errorRegion();
  const status = statusRegion();
  const sessions = sessionsSection(status, problem);
  const email = emailSection(status, () => sessions.refresh().catch((err) => showError(problem, err)));
  // The team's address, export and deletion are an owner's (team.admin); every member has their own sessions.
  if (!may('team.admin')) {
    main.append(heading(title), el('p', { class: 'lead' }, 'The browsers signed in as you.'), el('p', { class: 'note', id: 'role-note' }, `Your role in this team (${role()}) cannot change the team’s address, export its data or delete it: an owner of the team can.`), problem, status, sessions.section);
  } else {
    main.append(heading(title), el('p', { class: 'lead' }, 'Your sign-in address, the browsers signed in to your account, and your data.'), problem, status, email, sessions.section, ...dataSections(main, ctx, status, problem));
  }
  await sessions.refresh();
}

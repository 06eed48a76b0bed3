import { el, errorRegion, fill, heading } from '../../shared/dom.js';
import { fieldForm, linkForm, sixDigits } from '../../shared/form.js';
import { request } from '../api.js';

export const title = 'Sign in';

// Only console pages may be returned to after signing in (no open redirect).
function nextPath() {
  const next = new URLSearchParams(location.search).get('next');
  return next && /^\/admin\/[\w/?=&%.~-]*$/.test(next) && !next.startsWith('/admin/v1') ? next : '/admin/';
}

function tokenForm() {
  const problem = errorRegion();
  const input = el('input', { id: 'token', name: 'token', type: 'password', autocomplete: 'current-password', required: true, 'aria-describedby': 'token-help' });
  const button = el('button', { type: 'submit' }, 'Sign in with the token');
  return el('section', { class: 'card', 'aria-labelledby': 'by-token' },
    el('h2', { id: 'by-token' }, 'With the admin token'),
    fieldForm(
      { field: input, problem, button, check: (value) => (value.trim() ? undefined : 'Paste the admin token.'), work: async (token) => {
        await request('POST', '/sign-in/token', { token });
        location.assign(nextPath());
      } },
      el('label', { for: 'token' }, 'Admin token'),
      input,
      el('p', { id: 'token-help', class: 'hint' }, 'ADMIN_TOKEN, or the gateway’s admin-token file beside its store (npm start prints where).'),
      problem,
      button,
    ),
  );
}

function emailForm(fromLink) {
  const area = el('div');
  const section = el('section', { class: 'card', 'aria-labelledby': 'by-email' }, el('h2', { id: 'by-email' }, 'With your operator address'), area);
  function emailStep(value = '') {
    const problem = errorRegion();
    const input = el('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email', required: true, maxlength: '254', value, 'aria-describedby': 'email-help' });
    const button = el('button', { type: 'submit' }, 'Send me a code');
    fill(area, fieldForm(
      { field: input, problem, button, check: () => (input.checkValidity() ? undefined : 'Enter an email address, such as ops@example.com.'), work: async (email) => {
        await request('POST', '/sign-in/code', { email });
        codeStep(email);
      } },
      el('label', { for: 'email' }, 'Email address'),
      input,
      el('p', { id: 'email-help', class: 'hint' }, 'One of OPERATOR_EMAILS: a 6-digit code and a link are mailed to it.'),
      problem,
      button,
    ));
    return input;
  }
  function linkStep(email, token) {
    const { form, button } = linkForm({
      email,
      follow: async () => {
        await request('POST', '/sign-in/link', { email, token });
        location.assign(nextPath());
      },
      again: () => emailStep(email).focus(),
    });
    fill(area, form);
    button.focus();
  }
  function codeStep(email) {
    const problem = errorRegion();
    const input = el('input', { id: 'code', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: '6', required: true, 'aria-describedby': 'code-help' });
    const button = el('button', { type: 'submit' }, 'Sign in with the code');
    fill(area, fieldForm(
      { field: input, problem, button, check: sixDigits, work: async (code) => {
        await request('POST', '/sign-in/code/verify', { email, code: code.replace(/\s/g, '') });
        location.assign(nextPath());
      } },
      el('p', { id: 'code-help' }, `If ${email} is an operator’s address, a 6-digit code is on its way there. Enter it here, or open the link in the mail (on any device).`),
      el('label', { for: 'code' }, 'Code from the mail'),
      input,
      problem,
      el('div', { class: 'row' }, button, el('button', { type: 'button', class: 'secondary', onclick: () => emailStep(email).focus() }, 'Use another address or send a new code')),
    ));
    input.focus();
  }
  // Run once the section is on the page: the link's step moves focus to its button.
  const start = () => (fromLink.email && fromLink.token ? linkStep(fromLink.email, fromLink.token) : emailStep(fromLink.email));
  return { section, start };
}

/** The admin token, or an operator's address and the code mailed to it. */
export async function render(main) {
  const params = new URLSearchParams(location.search);
  const fromLink = { email: params.get('email') ?? '', token: params.get('token') ?? '' };
  // The token is in the URL only until the page has read it: out of the history and any referrer.
  if (fromLink.token) {
    params.delete('token');
    history.replaceState(null, '', `${location.pathname}${params.size ? `?${params}` : ''}`);
  }
  main.append(heading(title));
  const ways = await request('GET', '/sign-in');
  if (!ways.token && !ways.email) {
    main.append(el('p', { class: 'error', role: 'alert' }, 'No way to sign in is set up on this gateway: set ADMIN_TOKEN (or run it on a store file, which keeps a token), or OPERATOR_EMAILS.'));
    return;
  }
  main.append(el('p', { class: 'lead' }, 'The operators’ console: accounts, usage, revenue and the audit log. Every change made here is recorded with your name.'));
  if (ways.token) main.append(tokenForm());
  if (ways.email) {
    const byEmail = emailForm(fromLink);
    main.append(byEmail.section);
    byEmail.start();
  }
}

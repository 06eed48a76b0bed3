import { el, errorRegion, fill, heading } from '../../shared/dom.js';
import { fieldForm, linkForm, sixDigits } from '../../shared/form.js';
import { request } from '../api.js';
import { person, session, signedIn } from '../session.js';

export const title = 'Sign in';

// Only paths of this portal may be returned to after signing in (no open redirect).
function nextPath(ctx, params) {
  const next = params.get('next');
  return next && /^\/portal\/[\w/?=&%.-]*$/.test(next) && !next.startsWith('//') ? next : ctx.pathOf('keys');
}

/** Email, then the 6-digit code from the mail; or the mailed link, which signs in from any device. */
export async function render(main, ctx) {
  const params = new URLSearchParams(location.search);
  main.append(heading(title));
  if (session()) {
    main.append(el('p', {}, `You are signed in as ${person()?.email ?? session().account.email ?? session().account.id}. `, el('a', { href: ctx.pathOf('keys') }, 'Go to your keys')));
    return;
  }
  const fromLink = { email: params.get('email') ?? '', token: params.get('token') ?? '' };
  // The token is in the URL only until the page has read it: out of the history and any referrer.
  if (fromLink.token) {
    params.delete('token');
    history.replaceState(null, '', `${location.pathname}${params.size ? `?${params}` : ''}`);
  }
  const area = el('div');
  main.append(el('p', { class: 'lead' }, 'No password: we mail you a 6-digit code. Signing in with a new address creates your account; the same address always reaches the same account.'), area);

  function emailStep(email = '') {
    const problem = errorRegion();
    const input = el('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email', required: true, maxlength: '254', value: email, 'aria-describedby': 'email-help' });
    const button = el('button', { type: 'submit' }, 'Send me a code');
    fill(area, fieldForm(
      { field: input, problem, button, check: () => (input.checkValidity() ? undefined : 'Enter an email address, such as you@example.com.'), work: async (value) => {
        await request('POST', '/dashboard/v1/sign-in', { email: value });
        codeStep(value);
      } },
      el('label', { for: 'email' }, 'Email address'),
      input,
      el('p', { id: 'email-help', class: 'hint' }, 'We send a code there; the address is proven when you enter it.'),
      problem,
      button,
    ));
    return input;
  }

  function linkStep(email, token) {
    const { form, button } = linkForm({
      email,
      follow: async () => {
        await signedIn(await request('POST', '/dashboard/v1/sign-in/link', { email, token }));
        ctx.navigate(nextPath(ctx, params), { replace: true });
      },
      again: () => emailStep(email).focus(),
    });
    fill(area, form);
    button.focus();
  }

  function codeStep(email) {
    const problem = errorRegion();
    const input = el('input', { id: 'code', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: '6', required: true, 'aria-describedby': 'code-help' });
    const button = el('button', { type: 'submit' }, 'Sign in');
    fill(area, fieldForm(
      { field: input, problem, button, check: sixDigits, work: async (value) => {
        await signedIn(await request('POST', '/dashboard/v1/sign-in/verify', { email, code: value.replace(/\s/g, '') }));
        ctx.navigate(nextPath(ctx, params), { replace: true });
      } },
      el('p', { id: 'code-help' }, `We sent a 6-digit code to ${email}. Enter it here, or open the link in the mail (on any device).`),
      el('label', { for: 'code' }, 'Code from the mail'),
      input,
      problem,
      el('div', { class: 'row' }, button, el('button', { type: 'button', class: 'secondary', onclick: () => emailStep(email).focus() }, 'Use another address or send a new code')),
    ));
    input.focus();
  }

  if (fromLink.email && fromLink.token) linkStep(fromLink.email, fromLink.token);
  else emailStep(fromLink.email);
}

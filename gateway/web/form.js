// A one-field form that talks to the gateway, as the sign-in pages of the portal and the console have.
import { el, errorRegion, showError } from './dom.js';

/**
 * A form around `field` (and `children`): on submit, `check(value)` may refuse in place (its text
 * shown in `problem`, focus back on the field); otherwise `work(value)` runs with `button`
 * disabled, and a refusal from the gateway is shown in `problem` with the field selected for
 * another try.
 */
export function fieldForm({ field, check, problem, button, work }, ...children) {
  return el('form', { class: 'stack', novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    const refusal = check(field.value);
    if (refusal) {
      showError(problem, new Error(refusal));
      field.focus();
      return;
    }
    button.disabled = true;
    try {
      await work(field.value.trim());
    } catch (err) {
      showError(problem, err);
      button.disabled = false;
      field.select();
      field.focus();
    }
  } }, ...children);
}

/** The check of a code field: the 6 digits of the mail. */
export const sixDigits = (value) => (/^[0-9]{6}$/.test(value.replace(/\s/g, '')) ? undefined : 'The code is the 6 digits in the mail.');

/**
 * The step a mailed sign-in link opens (the portal's and the console's): signing in is a press of
 * Sign in, not the page load, so a mail scanner that opens the link signs nobody in. `follow()` runs
 * on the press (a refusal shown in place, the button enabled again); `again()` goes back to asking
 * for an address. Focus the returned button once the form is on the page.
 */
export function linkForm({ email, follow, again }) {
  const problem = errorRegion();
  const button = el('button', { type: 'submit' }, 'Sign in');
  const form = el('form', { class: 'stack', onsubmit: async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      await follow();
    } catch (err) {
      showError(problem, err);
      button.disabled = false;
    }
  } },
  el('p', {}, `The link from the mail signs you in as ${email}: press Sign in.`),
  problem,
  el('div', { class: 'row' }, button, el('button', { type: 'button', class: 'secondary', onclick: again }, 'Use another address or send a new code')));
  return { form, button };
}

// A one-field form that talks to the gateway, as the sign-in pages of the portal and the console have.
import { el, showError } from './dom.js';

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

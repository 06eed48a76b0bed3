// The box a secret is shown in once (a key's, a webhook endpoint's): copy it, then say it is saved.
import { copyText, el, statusRegion } from '../shared/dom.js';

/**
 * A card with `heading`, a note, the secret in `<code id=codeId>`, a copy button, `extra` actions
 * and "I have saved it" (which calls `done`); focus goes to its heading once it is in the page.
 */
export function secretBox({ id, heading, note, codeId, secret, extra = [], done }) {
  const copyStatus = statusRegion();
  return el('section', { class: 'card secret-box', 'aria-labelledby': id },
    el('h2', { id, tabindex: '-1' }, heading),
    el('p', {}, note),
    el('code', { class: 'secret', id: codeId }, secret),
    el('div', { class: 'row' },
      el('button', { type: 'button', onclick: () => copyText(secret, copyStatus, 'Secret copied') }, 'Copy secret'),
      extra,
      el('button', { type: 'button', class: 'secondary', onclick: done }, 'I have saved it'),
    ),
    copyStatus,
  );
}

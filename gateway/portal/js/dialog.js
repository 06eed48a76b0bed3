// A confirmation in the native <dialog> (focus stays in it, Escape closes it): the keys and webhooks pages share it.
import { el } from './dom.js';

/** Shows a modal dialog; resolves true when confirmed. */
export function confirmDialog(titleText, body, confirmText, danger) {
  return new Promise((resolve) => {
    const id = `dialog-${Math.random().toString(36).slice(2)}`;
    const dialog = el('dialog', { 'aria-labelledby': id });
    const close = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    dialog.append(
      el('form', { method: 'dialog', class: 'stack', onsubmit: (event) => { event.preventDefault(); close(true); } },
        el('h2', { id }, titleText),
        body,
        el('div', { class: 'row' }, el('button', { type: 'submit', class: danger ? 'danger' : '' }, confirmText), el('button', { type: 'button', class: 'secondary', onclick: () => close(false) }, 'Cancel')),
      ),
    );
    dialog.addEventListener('cancel', (event) => { event.preventDefault(); close(false); });
    document.body.append(dialog);
    dialog.showModal();
  });
}

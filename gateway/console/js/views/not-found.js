import { el, heading } from '../../shared/dom.js';

export const title = 'Page not found';

/** Any other path under /admin/. */
export async function render(main) {
  main.append(heading(title), el('p', {}, 'There is no console page here. ', el('a', { href: '/admin/' }, 'Go to the overview')));
}

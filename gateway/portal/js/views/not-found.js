import { el, heading } from '../../shared/dom.js';

export const title = 'Page not found';

/** Any other path under /portal/. */
export async function render(main, ctx) {
  main.append(heading(title), el('p', {}, 'There is no portal page here. ', el('a', { href: ctx.pathOf('catalogue') }, 'See the catalogue')));
}

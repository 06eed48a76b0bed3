// The console's entry: reads who is signed in (the cookie is HttpOnly: only the gateway can tell),
// shows it with a way to sign out, and renders the page's view into <main>. Pages are plain links:
// each is loaded whole, so every address is a real page and reloads and deep links just work.
import { el, errorRegion, fill, revealInNav, showError } from '../shared/dom.js';
import { request, setCsrfToken } from './api.js';

const page = document.body.dataset.page;
const main = document.getElementById('main');
const who = document.getElementById('who');

function showWho(session) {
  const button = el('button', { type: 'button', class: 'link', onclick: async () => {
    button.disabled = true;
    try {
      await request('DELETE', '/session');
    } finally {
      location.assign('/admin/sign-in');
    }
  } }, 'Sign out');
  fill(who, el('span', { class: 'email', title: session.operator.name }, session.operator.name), button);
}

async function start() {
  revealInNav(document.querySelector('header nav a[aria-current="page"]'));
  let session = null;
  try {
    if (page !== 'sign-in') {
      session = await request('GET', '/session');
      setCsrfToken(session.csrf_token);
      showWho(session);
    }
    const view = await import(`./views/${page}.js`);
    main.replaceChildren();
    await view.render(main, { session });
  } catch (err) {
    const region = errorRegion();
    main.querySelector('#loading')?.remove();
    main.append(region);
    showError(region, err);
  }
}

void start();

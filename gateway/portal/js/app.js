// The portal's entry: renders the page's view into <main>, keeps the header's sign-in state, and
// follows links between portal pages in place, so a secret shown on Keys is still in memory on Try it.
import { el, fill, showError, errorRegion, revealInNav } from '../shared/dom.js';
import { loadSession, may, onSessionChange, person, session, signOut, switchTeam, teams } from './session.js';
import { billingStatus, paymentBanner } from './billing.js';

const body = document.body;
const main = document.getElementById('main');
const who = document.getElementById('who');
const pathOf = new Map();
const idOf = new Map();
for (const entry of body.dataset.pages.split('|')) {
  const [id, path] = entry.split(' ');
  pathOf.set(id, path);
  idOf.set(path, id);
}

const views = import.meta.url; // base for view modules
const loadView = (id) => import(new URL(`./views/${id}.js`, views).href);
let renderCount = 0;

/** What views get: navigation and the key header's name. */
const ctx = {
  keyHeader: document.querySelector('meta[name="tollgate-key-header"]').content,
  navigate,
  pathOf: (id) => pathOf.get(id),
};

async function render(id, { focus, ended = false }) {
  const mine = ++renderCount;
  const view = await loadView(id);
  if (mine !== renderCount) return;
  document.title = `${view.title} · Tollgate developer portal`;
  shown = location.pathname + location.search;
  body.dataset.page = id;
  for (const link of document.querySelectorAll('header nav a')) {
    if (link.getAttribute('href') === pathOf.get(id)) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  revealInNav(document.querySelector('header nav a[aria-current="page"]'));
  main.replaceChildren();
  try {
    await view.render(main, { ...ctx, ended });
  } catch (err) {
    const region = errorRegion();
    main.append(region);
    showError(region, err);
  }
  if (mine === renderCount) await showPaymentBanner(mine);
  // A fragment names a part of the page (an endpoint on a reference page): it gets focus, else the heading does.
  const target = location.hash.length > 1 ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
  if (target) {
    target.focus();
    target.scrollIntoView({ block: 'start' });
  } else if (focus) main.querySelector('h1')?.focus();
}

// A failed payment is said on every page while signed in, under the page's heading.
async function showPaymentBanner(mine) {
  if (!session()) return;
  const status = await billingStatus().catch(() => null);
  const banner = paymentBanner(status, pathOf.get('billing'));
  if (!banner || mine !== renderCount) return;
  const heading = main.querySelector('h1');
  if (heading) heading.after(banner);
  else main.prepend(banner);
}

/** Goes to a portal path in place (other paths load normally). */
export function navigate(href, { replace = false } = {}) {
  const url = new URL(href, location.href);
  const id = url.origin === location.origin ? idOf.get(url.pathname) : undefined;
  if (!id) {
    location.assign(url.href);
    return;
  }
  history[replace ? 'replaceState' : 'pushState'](null, '', url.pathname + url.search + url.hash);
  void render(id, { focus: true });
}

document.addEventListener('click', (event) => {
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || link.target) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !idOf.has(url.pathname)) return;
  // A link to a fragment of this very page is the browser's to follow.
  if (url.hash && url.pathname === location.pathname && url.search === location.search) return;
  event.preventDefault();
  navigate(url.href);
});
let shown = location.pathname + location.search;
window.addEventListener('popstate', () => {
  // Moving between fragments of the page shown is not a new page.
  if (location.pathname + location.search === shown) return;
  void render(idOf.get(location.pathname) ?? 'not-found', { focus: true });
});

// Pages a role may not use are not offered in the navigation (docs/teams.md#roles); signed out, all are (each asks to sign in).
const NAV_NEEDS = { billing: 'billing', webhooks: 'events.manage' };
function navForRole(current) {
  for (const link of document.querySelectorAll('header nav a')) {
    const need = NAV_NEEDS[idOf.get(link.getAttribute('href'))];
    link.parentElement.hidden = Boolean(need && current && !may(need));
  }
}

/** The current team, named; a list to switch with when the person is in several. */
function teamSwitcher() {
  const list = teams();
  const here = list.find((t) => t.current);
  if (!here) return null;
  if (list.length < 2) return el('span', { class: 'team' }, el('span', { class: 'team-label' }, 'Team'), el('strong', { class: 'team-name', title: here.name }, here.name));
  const select = el('select', { id: 'team-switch' }, list.map((t) => el('option', { value: t.id, selected: t.current }, `${t.name} (${t.role})`)));
  // A button, not the list's change: moving through the list with the keyboard must not switch at each step.
  const go = el('button', { type: 'button', class: 'secondary', 'aria-label': 'Switch team', onclick: async () => {
    if (select.value === here.id) return;
    go.disabled = true;
    try {
      await switchTeam(select.value);
      // The page of the address bar, not the one drawn last: a link followed just before Switch may
      // not be drawn yet (its view still loading), and the team's page must be the one it asked for.
      await render(idOf.get(location.pathname) ?? 'not-found', { focus: false });
      document.getElementById('team-switch')?.focus();
    } catch (err) {
      go.disabled = false;
      select.value = here.id;
      const region = errorRegion();
      main.prepend(region);
      showError(region, err);
    }
  } }, 'Switch');
  return el('span', { class: 'team' }, el('label', { for: 'team-switch', class: 'team-label' }, 'Team'), select, go);
}

function showWho(current) {
  navForRole(current);
  if (!current) {
    fill(who, el('a', { href: `${pathOf.get('sign-in')}` }, 'Sign in'));
    return;
  }
  const button = el('button', { type: 'button', class: 'link', onclick: async () => {
    button.disabled = true;
    try {
      await signOut();
    } catch {
      // The session is forgotten here whatever the gateway answered.
    }
    navigate(pathOf.get('sign-in'));
  } }, 'Sign out');
  const email = person()?.email ?? current.account.email ?? current.account.id;
  fill(who, teamSwitcher(), el('a', { href: pathOf.get('account'), class: 'email', title: 'Account settings' }, email), button);
}

let wasSignedIn = false;
onSessionChange((current) => {
  showWho(current);
  // A view that needs the account re-renders when the session ends under it (expired, signed out elsewhere).
  if (wasSignedIn && !current && ['keys', 'subscriptions', 'billing', 'usage', 'webhooks', 'team', 'account', 'invitation'].includes(body.dataset.page)) void render(body.dataset.page, { focus: false, ended: true });
  wasSignedIn = Boolean(current);
});

async function start() {
  try {
    await loadSession();
  } catch (err) {
    showWho(null);
    const region = errorRegion();
    showError(region, err);
    main.prepend(region);
  }
  await render(body.dataset.page, { focus: false });
}

void start();

// Small DOM helpers: elements are built, never parsed from strings, so data cannot become markup.

/** el('a', { href, class: 'x', onclick }, 'text', child…): attributes, `on…` listeners, text and nodes. */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') node.addEventListener(name.slice(2), value);
    else if (name === 'class') node.className = value;
    else if (name === 'value') node.value = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
}

/** Replaces a node's children. */
export function fill(node, ...children) {
  node.replaceChildren();
  append(node, children);
  return node;
}

/** A region that shows an error (the envelope's message) in place; empty until used. */
export function errorRegion() {
  return el('p', { class: 'error', role: 'alert', hidden: true });
}

/** Shows an error (or clears the region with null); extra nodes (a link) may follow the message. */
export function showError(region, err, ...extra) {
  if (!err) {
    region.hidden = true;
    region.replaceChildren();
    return;
  }
  fill(region, err.message || String(err), ...extra);
  region.hidden = false;
}

/** Runs `work`, clearing `region` first and showing in it what `work` throws; returns what `work` returned (undefined when it threw). */
export async function within(region, work) {
  showError(region, null);
  try {
    return await work();
  } catch (err) {
    showError(region, err);
    return undefined;
  }
}

/**
 * An action of a list view: `work` runs with a refusal shown in `problem`, then `refresh` redraws
 * the list either way, and the text `work` returned is said in `status` only then: a screen reader
 * hears "… is revoked." when the list no longer shows it active.
 */
export function actThen(problem, refresh, status) {
  return async (work) => {
    const said = await within(problem, work);
    // A list that cannot be read again says so in `problem`; what was done is said either way.
    try {
      await refresh();
    } catch (err) {
      showError(problem, err);
    }
    if (typeof said === 'string') fill(status, said);
  };
}

/** A status line, announced politely. */
export function statusRegion() {
  return el('p', { class: 'status', role: 'status' });
}

const numberFormat = new Intl.NumberFormat('en');
export const int = (n) => numberFormat.format(n);

/** "23 Nov 2026, 16:04 UTC": always UTC, the time the quotas and history count in. */
export function dateTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return `${d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' })}, ${d.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })} UTC`;
}

/** "5.75 USD" from 575 and USD, with the currency's own minor digits; "free" for 0. */
export function price(amount, currency) {
  if (amount === 0) return 'free';
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return `${(amount / 10 ** digits).toFixed(digits)} ${currency}`;
}

/** "3 h 20 min", "2 days": a duration in seconds, coarsely. */
export function duration(seconds) {
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
  return `${Math.round(seconds / 86400)} days`;
}

/** Copies text, saying so in `status`; the clipboard needs a secure context, so fall back to selecting. */
export async function copyText(text, status, what = 'Copied') {
  try {
    await navigator.clipboard.writeText(text);
    fill(status, `${what} to the clipboard.`);
  } catch {
    fill(status, 'Copying is not allowed here: select the text and copy it by hand.');
  }
}

/** The page's heading, focusable so navigation can move focus to it. */
export const heading = (text) => el('h1', { tabindex: '-1' }, text);

/**
 * Scrolls the sideways-scrolling navigation holding `link` (a phone's one row of tabs) so the link
 * is in view, centred where it can be, without moving the page itself (scrollIntoView would).
 */
export function revealInNav(link) {
  const nav = link?.closest('nav');
  if (!nav || nav.scrollWidth <= nav.clientWidth) return;
  const box = nav.getBoundingClientRect();
  const at = link.getBoundingClientRect();
  nav.scrollLeft += at.left - box.left - (nav.clientWidth - at.width) / 2;
}

// The Usage page's detail: the last 30 days per key and per endpoint, errors, and latency (p50,
// p95) per day, from GET /dashboard/v1/usage/breakdown; the same figures as CSV from the link.
import { el, int } from '../../shared/dom.js';
import { drawLines } from '../../shared/chart.js';

export const CSV_PATH = '/dashboard/v1/usage/breakdown.csv';

const share = (errors, calls) => (calls ? `${((errors * 100) / calls).toFixed(1)}%` : '—');
const ms = (value) => (value === null ? '—' : `≤ ${int(value)} ms`);

/** Calls and errors summed over the days, per name (first seen first, then most calls first). */
function totals(days, rowsOf, nameOf) {
  const sums = new Map();
  for (const day of days) {
    for (const row of rowsOf(day)) {
      const name = nameOf(row);
      const sum = sums.get(name) ?? { name, calls: 0, errors: 0 };
      sum.calls += row.calls;
      sum.errors += row.errors;
      sums.set(name, sum);
    }
  }
  return [...sums.values()].sort((a, b) => b.calls - a.calls || (a.name < b.name ? -1 : 1));
}

/** A table of calls, errors and error share, one row per name, with the total; stacked on phones. */
function callsTable(caption, first, rows, attribute) {
  const labels = [first, 'Calls', 'Errors', 'Error share'];
  const cells = (r) => [el('td', { class: 'num calls', 'data-label': labels[1] }, int(r.calls)), el('td', { class: 'num errors', 'data-label': labels[2] }, int(r.errors)), el('td', { class: 'num', 'data-label': labels[3] }, share(r.errors, r.calls))];
  const all = rows.reduce((t, r) => ({ calls: t.calls + r.calls, errors: t.errors + r.errors }), { calls: 0, errors: 0 });
  return el('div', { class: 'scroll' }, el('table', { class: 'stacked breakdown' },
    el('caption', { class: 'visually-hidden' }, caption),
    el('thead', {}, el('tr', {}, labels.map((l, i) => el('th', { scope: 'col', class: i ? 'num' : undefined }, l)))),
    el('tbody', {}, rows.map((r) => el('tr', { [attribute]: r.id }, el('th', { scope: 'row', 'data-label': first }, r.label), cells(r)))),
    el('tfoot', {}, el('tr', { class: 'total' }, el('th', { scope: 'row', 'data-label': first }, 'All'), cells(all))),
  ));
}

/** The days with calls: calls, errors, error share, p50 and p95, in a disclosure under the latency chart. */
function dayTable(days) {
  const labels = ['Day (UTC)', 'Calls', 'Errors', 'Error share', 'p50', 'p95'];
  const rows = days.filter((d) => d.calls > 0);
  return el('details', { class: 'data' },
    el('summary', {}, `Latency and errors by day as a table (${rows.length} day${rows.length === 1 ? '' : 's'} with calls)`),
    el('div', { class: 'scroll' }, el('table', { class: 'stacked latency' },
      el('caption', { class: 'visually-hidden' }, 'Calls, errors and latency per day'),
      el('thead', {}, el('tr', {}, labels.map((l, i) => el('th', { scope: 'col', class: i ? 'num' : undefined }, l)))),
      el('tbody', {}, rows.map((d) => el('tr', { 'data-day': d.day },
        el('th', { scope: 'row', 'data-label': labels[0] }, d.day),
        [int(d.calls), int(d.errors), share(d.errors, d.calls), ms(d.p50_ms), ms(d.p95_ms)].map((v, i) => el('td', { class: `num ${['calls', 'errors', 'share', 'p50', 'p95'][i]}`, 'data-label': labels[i + 1] }, v)),
      ))),
    )),
  );
}

/**
 * The detail section for `breakdown` (the route's data); returns the section and a function that
 * draws its latency chart once the section is in the page.
 */
export function usageDetail(breakdown) {
  const id = 'usage-detail';
  const { days } = breakdown;
  const calls = days.reduce((sum, d) => sum + d.calls, 0);
  const errors = days.reduce((sum, d) => sum + d.errors, 0);
  const section = el('section', { class: 'card usage-detail', 'aria-labelledby': id }, el('h2', { id }, `Last ${days.length} days in detail`));
  if (calls === 0) {
    section.append(el('p', { class: 'muted empty' }, `No calls in the last ${days.length} days. Calls made with any of your keys show here per key, per endpoint and with their latency within a few seconds.`));
    return { section, draw: async () => undefined };
  }
  const names = new Map(breakdown.keys.map((k) => [k.id, k.revoked ? `${k.name} (revoked)` : k.name]));
  const keys = totals(days, (d) => d.keys, (k) => k.key_id).map((k) => ({ ...k, id: k.name, label: names.get(k.name) ?? k.name }));
  const endpoints = totals(days, (d) => d.endpoints, (e) => e.label).map((e) => ({ ...e, id: e.name, label: e.name }));
  const holder = el('div', { class: 'chart', role: 'img', 'aria-label': 'Latency per day (p50 and p95); the table below lists it by day.' });
  section.append(
    el('p', { class: 'summary' }, el('strong', {}, int(calls)), ` calls, ${int(errors)} errors (${share(errors, calls)} error share). `, el('a', { href: CSV_PATH, download: '', class: 'button secondary' }, 'Download CSV')),
    el('h3', {}, 'Per key'),
    callsTable('Calls per key', 'Key', keys, 'data-key-id'),
    el('h3', {}, 'Per endpoint'),
    callsTable('Calls per endpoint', 'Endpoint', endpoints, 'data-endpoint'),
    el('h3', {}, 'Latency per day'),
    holder,
    dayTable(days),
  );
  const dayIds = days.map((d) => d.day);
  const lines = [
    { label: 'p50 (ms)', stroke: '#1f6feb' },
    { label: 'p95 (ms)', stroke: '#b35900' },
  ];
  return { section, draw: () => drawLines(holder, dayIds, lines, [days.map((d) => d.p50_ms), days.map((d) => d.p95_ms)]) };
}

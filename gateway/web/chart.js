// Calls per day by outcome, as a uPlot chart and the same figures as a table (for screen readers,
// and the tests): shared by the portal's Usage page and the console's account page.
import { el, int } from './dom.js';

/** The outcomes drawn, each from a day's history counts. */
export const OUTCOMES = [
  { label: 'Served', of: (c) => (c['2xx'] ?? 0), stroke: '#1a7f37' },
  { label: 'Rejected (429)', of: (c) => (c['429'] ?? 0), stroke: '#b35900' },
  { label: 'Errors (4xx, 5xx)', of: (c) => (c['4xx'] ?? 0) + (c['5xx'] ?? 0), stroke: '#c62828' },
  { label: 'Refunded', of: (c) => (c.refunded ?? 0), stroke: '#5b5fc7' },
];

// uPlot is loaded from the gateway (node_modules, no CDN) the first time a chart is drawn, from
// the vendor folder beside this page's assets (/portal/vendor/, /admin/vendor/).
const VENDOR = new URL('../../vendor/uplot/', import.meta.url);
let uplotLoading;
function loadUplot() {
  uplotLoading ??= new Promise((resolve, reject) => {
    document.head.append(el('link', { rel: 'stylesheet', href: new URL('uPlot.min.css', VENDOR).pathname }));
    const script = el('script', { src: new URL('uPlot.iife.min.js', VENDOR).pathname });
    script.addEventListener('load', () => resolve(window.uPlot));
    script.addEventListener('error', () => reject(new Error('The chart library could not be loaded; the table below has the same figures.')));
    document.head.append(script);
  });
  return uplotLoading;
}

/** The last `count` UTC days, oldest first, as YYYY-MM-DD. */
export function lastDays(count) {
  const now = new Date();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * 86400000).toISOString().slice(0, 10));
}

/** One series per outcome over `days`, from an account's (or the server's) history of one API. */
export function seriesOf(history, api, days) {
  const byDay = new Map(history.filter((d) => d.api === api).map((d) => [d.day, d.counts]));
  return OUTCOMES.map((o) => days.map((day) => o.of(byDay.get(day) ?? {})));
}

/** The figures of a chart as a table of the days with calls, in a disclosure. */
export function historyTable(label, api, days, series) {
  const rows = days.map((day, i) => ({ day, values: series.map((s) => s[i]) })).filter((r) => r.values.some((v) => v > 0));
  return el('details', { class: 'data' },
    el('summary', {}, `Daily calls as a table (${rows.length} day${rows.length === 1 ? '' : 's'} with calls)`),
    rows.length === 0 ? el('p', { class: 'muted' }, `No calls in the last ${days.length} days.`) : el('div', { class: 'scroll' }, el('table', { class: 'history', 'data-api': api },
      el('caption', { class: 'visually-hidden' }, `${label}: calls per day by outcome`),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Day (UTC)'), OUTCOMES.map((o) => el('th', { scope: 'col', class: 'num' }, o.label)))),
      el('tbody', {}, rows.map((r) => el('tr', { 'data-day': r.day }, el('th', { scope: 'row' }, r.day), r.values.map((v) => el('td', { class: 'num' }, int(v)))))),
    )),
  );
}

/**
 * Draws lines over `days` into `holder` with uPlot: `lines` are `{ label, stroke, dash? }`, `values`
 * one array per line (null: no point that day). The y axis starts at 0 and leaves room above `yMin`.
 */
export async function drawLines(holder, days, lines, values, { yMin = 4 } = {}) {
  const uPlot = await loadUplot();
  const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  const width = Math.max(280, holder.clientWidth || 600);
  // The axes in the page's theme (uPlot draws on a canvas, which CSS does not reach).
  const style = window.getComputedStyle(holder);
  const ink = style.getPropertyValue('--muted').trim() || '#5a6272';
  const grid = style.getPropertyValue('--line').trim() || '#d5d9e0';
  new uPlot({
    width,
    height: 220,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(yMin, Math.ceil(max * 1.15))] } },
    axes: [{ stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } }, { size: 56, stroke: ink, grid: { stroke: grid }, ticks: { stroke: grid } }],
    series: [{ label: 'Day' }, ...lines.map((l) => ({ label: l.label, stroke: l.stroke, width: 2, ...(l.dash ? { dash: l.dash, points: { show: false } } : { points: { show: true, size: 5 } }) }))],
    legend: { live: false },
  }, [xs, ...values], holder);
}

/** Draws the chart of calls by outcome into `holder` (a `role="img"` element, labelled here with the total). */
export async function drawChart(holder, label, days, series) {
  const total = series.flat().reduce((a, b) => a + b, 0);
  holder.setAttribute('aria-label', `${label}: ${int(total)} calls in the last ${days.length} days; the table below lists them by day.`);
  await drawLines(holder, days, OUTCOMES, series);
}

import { dateTime, duration, el, errorRegion, heading, int, showError } from '../dom.js';
import { plans, request } from '../api.js';
import { apiTitle, requireSession } from './common.js';

export const title = 'Usage';

const OUTCOMES = [
  { label: 'Served', of: (c) => (c['2xx'] ?? 0), stroke: '#1a7f37' },
  { label: 'Rejected (429)', of: (c) => (c['429'] ?? 0), stroke: '#b35900' },
  { label: 'Errors (4xx, 5xx)', of: (c) => (c['4xx'] ?? 0) + (c['5xx'] ?? 0), stroke: '#c62828' },
  { label: 'Refunded', of: (c) => (c.refunded ?? 0), stroke: '#5b5fc7' },
];

// uPlot is loaded from the gateway (node_modules, no CDN) the first time a chart is drawn.
let uplotLoading;
function loadUplot() {
  uplotLoading ??= new Promise((resolve, reject) => {
    document.head.append(el('link', { rel: 'stylesheet', href: '/portal/vendor/uplot/uPlot.min.css' }));
    const script = el('script', { src: '/portal/vendor/uplot/uPlot.iife.min.js' });
    script.addEventListener('load', () => resolve(window.uPlot));
    script.addEventListener('error', () => reject(new Error('The chart library could not be loaded; the table below has the same figures.')));
    document.head.append(script);
  });
  return uplotLoading;
}

/** The last 30 UTC days, oldest first, as YYYY-MM-DD. */
function lastDays(count) {
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  return Array.from({ length: count }, (_, i) => new Date(today - (count - 1 - i) * 86400000).toISOString().slice(0, 10));
}

function seriesOf(history, api, days) {
  const byDay = new Map(history.filter((d) => d.api === api).map((d) => [d.day, d.counts]));
  return OUTCOMES.map((o) => days.map((day) => o.of(byDay.get(day) ?? {})));
}

function table(api, days, series) {
  const rows = days.map((day, i) => ({ day, values: series.map((s) => s[i]) })).filter((r) => r.values.some((v) => v > 0));
  return el('details', { class: 'data' },
    el('summary', {}, `Daily calls as a table (${rows.length} day${rows.length === 1 ? '' : 's'} with calls)`),
    rows.length === 0 ? el('p', { class: 'muted' }, 'No calls in the last 30 days.') : el('div', { class: 'scroll' }, el('table', { class: 'history', 'data-api': api },
      el('caption', { class: 'visually-hidden' }, `${apiTitle(api)}: calls per day by outcome`),
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Day (UTC)'), OUTCOMES.map((o) => el('th', { scope: 'col', class: 'num' }, o.label)))),
      el('tbody', {}, rows.map((r) => el('tr', { 'data-day': r.day }, el('th', { scope: 'row' }, r.day), r.values.map((v) => el('td', { class: 'num' }, int(v)))))),
    )),
  );
}

async function chart(holder, days, series, api) {
  const uPlot = await loadUplot();
  const xs = days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000);
  const width = Math.max(280, holder.clientWidth || 600);
  const total = series.flat().reduce((a, b) => a + b, 0);
  holder.setAttribute('aria-label', `${apiTitle(api)}: ${int(total)} calls in the last 30 days; the table below lists them by day.`);
  new uPlot({
    width,
    height: 220,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] } },
    axes: [{}, { size: 48 }],
    series: [{ label: 'Day' }, ...OUTCOMES.map((o) => ({ label: o.label, stroke: o.stroke, width: 2, points: { show: true, size: 5 } }))],
    legend: { live: false },
  }, [xs, ...series], holder);
}

/** The highest of the account's thresholds an API's month has reached (percent), or 0. */
function reachedThreshold(line, thresholds) {
  if (!line || line.window !== 'month' || !line.limit) return 0;
  return Math.max(0, ...(thresholds ?? []).filter((t) => line.used * 100 >= line.limit * t));
}

/** The warning for every API at or past one of its thresholds this month, with when it resets, or null. */
function quotaBanner(usage, settings, webhooksPath) {
  const lines = usage.apis.map((line) => ({ line, reached: reachedThreshold(line, settings?.thresholds[line.api]) })).filter((x) => x.reached > 0);
  if (lines.length === 0) return null;
  return el('div', { class: 'banner', role: 'alert', id: 'quota-banner' },
    lines.map(({ line }) => el('p', {}, line.used >= line.limit
      ? [el('strong', {}, `${apiTitle(line.api)}: this month’s quota is used up. `), `Calls get 429 until it resets ${dateTime(line.resets_at)}; a larger plan raises it at once.`]
      : [el('strong', {}, `${apiTitle(line.api)}: ${Math.floor((line.used * 100) / line.limit)}% of this month’s quota used `), `(${int(line.used)} of ${int(line.limit)} calls); it resets ${dateTime(line.resets_at)}.`])),
    el('p', {}, el('a', { href: webhooksPath }, 'Alerts and webhooks')),
  );
}

/** "at 80% and 100%, by mail and to 1 webhook endpoint": which alerts an API has on. */
function alertsText(api, settings, endpoints) {
  if (!settings) return '—';
  const at = settings.thresholds[api] ?? [];
  const hooks = endpoints.filter((e) => e.enabled && e.types.includes('quota.threshold_reached')).length;
  const how = [settings.mail['quota.threshold_reached'] ? 'by mail' : null, hooks ? `to ${hooks} webhook endpoint${hooks === 1 ? '' : 's'}` : null].filter(Boolean);
  return how.length ? `at ${at.map((t) => `${t}%`).join(' and ')}, ${how.join(' and ')}` : 'off';
}

/** Per API: this period against the quota, the reset, plan and rate, and 30 days of calls by outcome. */
export async function render(main, ctx) {
  if (!requireSession(main, ctx, title, 'see your usage')) return;
  const problem = errorRegion();
  main.append(heading(title), el('p', { class: 'lead' }, 'All your keys together, in UTC. Calls appear here within a few seconds.'), problem);
  const [usage, history, planTable, settings, endpoints] = await Promise.all([
    request('GET', '/dashboard/v1/usage'),
    request('GET', '/dashboard/v1/history'),
    plans(),
    request('GET', '/dashboard/v1/events/settings').catch(() => null),
    request('GET', '/dashboard/v1/webhooks').catch(() => []),
  ]);
  const banner = quotaBanner(usage, settings, ctx.pathOf('webhooks'));
  if (banner) problem.after(banner);
  const days = lastDays(30);
  const charts = [];
  for (const entry of planTable) {
    const { api } = entry;
    const line = usage.apis.find((u) => u.api === api);
    const plan = line?.plan && line.window === 'month' ? entry.plans.find((p) => p.name === line.plan) : undefined;
    const id = `usage-${api}`;
    const series = seriesOf(history.days, api, days);
    const holder = el('div', { class: 'chart', role: 'img', 'aria-label': `${apiTitle(api)} calls per day` });
    const facts = line
      ? [
          el('p', { class: 'figure' }, el('strong', {}, int(line.used)), ` of ${int(line.limit)} calls ${line.window === 'month' ? `this month (${line.period})` : 'today (playground)'}`),
          el('progress', { max: String(line.limit), value: String(Math.min(line.used, line.limit)), 'aria-label': `${apiTitle(api)}: ${line.used} of ${line.limit} calls used` }),
          el('p', {}, `${int(line.remaining)} left; resets ${dateTime(line.resets_at)} (in ${duration(line.resets_in_seconds)}).`),
        ]
      : [el('p', {}, 'No plan and no playground: subscribe to call this API.')];
    const side = el('dl', { class: 'facts' },
      el('dt', {}, 'Plan'), el('dd', {}, plan ? plan.name : line?.window === 'day' ? 'none (playground)' : 'none'),
      el('dt', {}, 'Rate limit'), el('dd', {}, plan ? `${int(plan.rate_per_second)} calls a second` : '—'),
      el('dt', {}, 'Monthly quota'), el('dd', {}, plan ? int(plan.monthly_quota) : '—'),
      el('dt', {}, 'Quota alerts'), el('dd', { class: 'alerts' }, alertsText(api, settings, endpoints), ' ', el('a', { href: ctx.pathOf('webhooks') }, 'Change')),
    );
    main.append(el('section', { class: 'card usage', 'aria-labelledby': id, 'data-api': api },
      el('h2', { id }, apiTitle(api)),
      el('div', { class: 'usage-grid' }, el('div', {}, facts), side),
      el('h3', {}, 'Last 30 days'),
      holder,
      table(api, days, series),
    ));
    charts.push(() => chart(holder, days, series, api));
  }
  try {
    await Promise.all(charts.map((draw) => draw()));
  } catch (err) {
    showError(problem, err);
  }
}

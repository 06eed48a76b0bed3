import { dateTime, duration, el, errorRegion, heading, int, showError } from '../../shared/dom.js';
import { drawChart, drawLines, historyTable, lastDays, seriesOf } from '../../shared/chart.js';
import { plans, request } from '../api.js';
import { apiTitle, requireSession } from './common.js';
import { usageDetail } from './usage-detail.js';

export const title = 'Usage';

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

/** Every UTC day of this month, first to last, as YYYY-MM-DD. */
function monthDays() {
  const now = new Date();
  const count = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 0)).getUTCDate();
  return Array.from({ length: count }, (_, i) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), i + 1)).toISOString().slice(0, 10));
}

/**
 * This month's calls added up day by day against the plan's monthly quota, drawn as a dashed line:
 * the calls the quota counts are those answered 2xx or 4xx (429s and refunded calls are not charged).
 */
function quotaChart(api, history, line) {
  const days = monthDays();
  const today = new Date().toISOString().slice(0, 10);
  const byDay = new Map(history.filter((d) => d.api === api).map((d) => [d.day, d.counts]));
  let sum = 0;
  const used = days.map((day) => (day > today ? null : (sum += (byDay.get(day)?.['2xx'] ?? 0) + (byDay.get(day)?.['4xx'] ?? 0))));
  const label = `${apiTitle(api)}: ${int(sum)} calls this month against the monthly quota of ${int(line.limit)} (dashed line)`;
  const holder = el('div', { class: 'chart quota-chart', role: 'img', 'aria-label': label, 'data-quota': String(line.limit) });
  const lines = [
    { label: 'Calls this month', stroke: '#1f6feb' },
    { label: `Monthly quota (${int(line.limit)})`, stroke: '#c62828', dash: [6, 4] },
  ];
  return { holder, draw: () => drawLines(holder, days, lines, [used, days.map(() => line.limit)]) };
}

/** The APIs the history names that the catalogue no longer has, in the order it names them. */
function withdrawnApis(history, planTable) {
  const offered = new Set(planTable.map((entry) => entry.api));
  return [...new Set(history.map((d) => d.api))].filter((api) => !offered.has(api));
}

/** Per API: this period against the quota, the reset, plan and rate, and 30 days of calls by outcome. */
export async function render(main, ctx) {
  if (!requireSession(main, ctx, title, 'see your usage')) return;
  const problem = errorRegion();
  main.append(heading(title), el('p', { class: 'lead' }, 'All your keys together, in UTC. Calls appear here within a few seconds.'), problem);
  const days = lastDays(30);
  // From the month's first day when it is more than 30 days back (the 31st), for the quota chart.
  const from = [days[0], monthDays()[0]].sort()[0];
  const [usage, history, planTable, settings, endpoints, breakdown] = await Promise.all([
    request('GET', '/dashboard/v1/usage'),
    request('GET', `/dashboard/v1/history?from=${from}`),
    plans(),
    request('GET', '/dashboard/v1/events/settings').catch(() => null),
    request('GET', '/dashboard/v1/webhooks').catch(() => []),
    request('GET', '/dashboard/v1/usage/breakdown'),
  ]);
  const banner = quotaBanner(usage, settings, ctx.pathOf('webhooks'));
  if (banner) problem.after(banner);
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
    const quota = line?.window === 'month' ? quotaChart(api, history.days, line) : null;
    main.append(el('section', { class: 'card usage', 'aria-labelledby': id, 'data-api': api },
      el('h2', { id }, apiTitle(api)),
      el('div', { class: 'usage-grid' }, el('div', {}, facts), side),
      quota && [el('h3', {}, 'This month against the quota'), quota.holder],
      el('h3', {}, 'Last 30 days'),
      holder,
      historyTable(apiTitle(api), api, days, series),
    ));
    charts.push(() => drawChart(holder, apiTitle(api), days, series));
    if (quota) charts.push(quota.draw);
  }
  // An API withdrawn from the catalogue keeps its history here (the gateway lists every API called).
  for (const api of withdrawnApis(history.days, planTable)) {
    const id = `usage-${api}`;
    const series = seriesOf(history.days, api, days);
    const holder = el('div', { class: 'chart', role: 'img', 'aria-label': `${apiTitle(api)} calls per day` });
    main.append(el('section', { class: 'card usage withdrawn', 'aria-labelledby': id, 'data-api': api },
      el('h2', { id }, `${apiTitle(api)} (withdrawn)`),
      el('p', {}, 'This API is no longer offered: calls to it are refused. Its calls are kept here as long as the rest of your history.'),
      el('h3', {}, 'Last 30 days'),
      holder,
      historyTable(apiTitle(api), api, days, series),
    ));
    charts.push(() => drawChart(holder, apiTitle(api), days, series));
  }
  const detail = usageDetail(breakdown);
  main.append(detail.section);
  charts.push(detail.draw);
  try {
    await Promise.all(charts.map((draw) => draw()));
  } catch (err) {
    showError(problem, err);
  }
}

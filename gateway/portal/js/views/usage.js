import { dateTime, duration, el, errorRegion, heading, int, showError } from '../../shared/dom.js';
import { drawChart, historyTable, lastDays, seriesOf } from '../../shared/chart.js';
import { plans, request } from '../api.js';
import { apiTitle, requireSession } from './common.js';

export const title = 'Usage';

/** Per API: this period against the quota, the reset, plan and rate, and 30 days of calls by outcome. */
export async function render(main, ctx) {
  if (!requireSession(main, ctx, title, 'see your usage')) return;
  const problem = errorRegion();
  main.append(heading(title), el('p', { class: 'lead' }, 'All your keys together, in UTC. Calls appear here within a few seconds.'), problem);
  const [usage, history, planTable] = await Promise.all([request('GET', '/dashboard/v1/usage'), request('GET', '/dashboard/v1/history'), plans()]);
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
    );
    main.append(el('section', { class: 'card usage', 'aria-labelledby': id, 'data-api': api },
      el('h2', { id }, apiTitle(api)),
      el('div', { class: 'usage-grid' }, el('div', {}, facts), side),
      el('h3', {}, 'Last 30 days'),
      holder,
      historyTable(apiTitle(api), api, days, series),
    ));
    charts.push(() => drawChart(holder, apiTitle(api), days, series));
  }
  try {
    await Promise.all(charts.map((draw) => draw()));
  } catch (err) {
    showError(problem, err);
  }
}

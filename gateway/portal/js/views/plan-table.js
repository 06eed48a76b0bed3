import { el, int, price } from '../../shared/dom.js';
import { apiTitle } from './common.js';

/** A feature's cell: a gate is included or not; a list (the chains) is its count, then its names. */
function featureCell(value) {
  if (typeof value === 'boolean') return value ? 'Included' : 'Not included';
  if (Array.isArray(value)) return [el('strong', {}, int(value.length)), el('span', { class: 'muted feature-list' }, ` ${value.join(', ')}`)];
  return value === undefined || value === null ? '—' : String(value);
}

/**
 * An API's plans from the live plan table (`entry` of GET /dashboard/v1/plans), with one column per
 * feature gate when its service documents them (`x-plan-features` of its tag in the OpenAPI document).
 */
export function planTable(entry, features) {
  // A retired plan serves those who hold it and is not offered: the pricing table leaves it out.
  const offered = entry.plans.filter((p) => p.offered !== false);
  const currency = offered[0]?.currency ?? '';
  const includes = offered.some((p) => p.features?.length);
  const columns = Object.entries(features?.columns ?? {});
  const gates = new Map((features?.plans ?? []).map((p) => [p.plan, p]));
  const heads = ['Calls a month', 'Calls a second', 'Price a month'];
  return el(
    'table',
    { class: 'plans stacked' },
    el('caption', {}, `${apiTitle(entry.api)} plans, per month${currency ? ` (${currency})` : ''}`),
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Plan'), heads.map((h) => el('th', { scope: 'col', class: 'num' }, h)), columns.map(([, title]) => el('th', { scope: 'col' }, title)), includes ? el('th', { scope: 'col' }, 'Includes') : null)),
    el('tbody', {}, offered.map((p) => el('tr', {},
      el('th', { scope: 'row', 'data-label': 'Plan' }, p.name),
      el('td', { class: 'num', 'data-label': heads[0] }, int(p.monthly_quota)),
      el('td', { class: 'num', 'data-label': heads[1] }, int(p.rate_per_second)),
      el('td', { class: 'num', 'data-label': heads[2] }, price(p.price, p.currency)),
      columns.map(([key, title]) => el('td', { 'data-label': title }, featureCell(gates.get(p.name)?.[key]))),
      includes ? el('td', { 'data-label': 'Includes' }, p.features.length ? el('ul', { class: 'features' }, p.features.map((line) => el('li', {}, line))) : '—') : null,
    ))),
  );
}

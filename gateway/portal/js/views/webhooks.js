import { actThen, dateTime, el, errorRegion, fill, heading, showError, statusRegion } from '../../shared/dom.js';
import { request } from '../api.js';
import { confirmDialog } from '../../shared/dialog.js';
import { secretBox } from '../secret-box.js';
import { apiTitle, requireRole, requireSession } from './common.js';

export const title = 'Webhooks';

/** What each event type means, in a few words. */
export const EVENT_LABELS = {
  'quota.threshold_reached': 'Quota threshold reached',
  'quota.reset': 'Quota reset (a new month)',
  'key.expiring': 'Key expiring (7 days and 1 day before)',
  'key.revoked': 'Key revoked',
  'subscription.changed': 'Subscription changed',
  'payment.failed': 'Payment failed',
  'payment.recovered': 'Payment received after a failure',
  'subscription.canceled': 'Paid plan ended',
};
const OVERLAPS = [[24, '24 hours'], [1, '1 hour'], [168, '7 days'], [0, 'No overlap: the old secret stops now']];
const STATE_TEXT = { pending: 'Retrying', delivered: 'Delivered', failed: 'Failed' };

const checkboxes = (name, checked) => el('fieldset', {},
  el('legend', {}, 'Events to send'),
  Object.entries(EVENT_LABELS).map(([type, label]) => {
    const id = `${name}-${type.replace('.', '-')}`;
    return el('div', { class: 'choice' }, el('input', { type: 'checkbox', id, name, value: type, checked: checked.includes(type) }), el('label', { for: id }, label));
  }),
);
const picked = (form, name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((input) => input.value);

/** Add endpoints, send test events, read the last deliveries, rotate secrets; and which events are mailed. */
export async function render(main, ctx) {
  if (!requireSession(main, ctx, title, 'send events to your own endpoints') || !(await requireRole(main, title, 'events.manage', '/dashboard/v1/webhooks'))) return;
  const problem = errorRegion();
  const status = statusRegion();
  const secretArea = el('div', { class: 'secret-area' });
  const list = el('div', { class: 'endpoint-list' });
  const mailArea = el('div');
  main.append(heading(title), el('p', { class: 'lead' }, 'Tollgate POSTs each event to your endpoints, signed as Standard Webhooks describes (webhook-id, webhook-timestamp, webhook-signature). Verify the signature with the endpoint’s secret, and dedupe on webhook-id: a delivery is retried until your endpoint answers 2xx.'), problem, status, secretArea);

  const act = actThen(problem, () => refresh(), status);

  function showSecret(endpoint, what) {
    fill(secretArea, secretBox({
      id: 'webhook-secret-title',
      heading: `${what}: copy the signing secret now`,
      note: 'It is shown this once. Keep it where your endpoint verifies signatures.',
      codeId: 'webhook-secret',
      secret: endpoint.secret,
      done: () => { secretArea.replaceChildren(); list.querySelector('h2')?.focus(); },
    }));
    secretArea.querySelector('h2').focus();
  }

  function deliveriesTable(endpoint, deliveries) {
    if (deliveries.length === 0) return el('p', { class: 'muted' }, 'No deliveries yet: send a test event.');
    return el('div', { class: 'scroll' }, el('table', { class: 'deliveries stacked', 'data-endpoint': endpoint.id },
      el('caption', { class: 'visually-hidden' }, `Last deliveries to ${endpoint.url}`),
      el('thead', {}, el('tr', {}, ['Sent', 'Event', 'State', 'Status code', 'Latency', 'Attempts', 'Actions'].map((h) => el('th', { scope: 'col' }, h)))),
      el('tbody', {}, deliveries.map((d) => el('tr', { 'data-delivery': d.id },
        el('th', { scope: 'row', 'data-label': 'Sent' }, dateTime(d.last_attempt_at ?? d.created_at)),
        el('td', { 'data-label': 'Event' }, el('code', {}, d.type)),
        el('td', { 'data-label': 'State', class: 'state' }, STATE_TEXT[d.state], d.state === 'pending' && d.next_attempt_at ? ` (next ${dateTime(d.next_attempt_at)})` : '', d.last_error ? el('span', { class: 'hint' }, d.last_error) : null),
        el('td', { 'data-label': 'Status code', class: 'num' }, d.last_status === null ? '—' : String(d.last_status)),
        el('td', { 'data-label': 'Latency', class: 'num' }, d.last_latency_ms === null ? '—' : `${d.last_latency_ms} ms`),
        el('td', { 'data-label': 'Attempts', class: 'num' }, String(d.attempts)),
        el('td', { 'data-label': 'Actions' }, el('button', { type: 'button', class: 'secondary', 'aria-label': `Redeliver ${d.type} sent ${dateTime(d.created_at)}`, disabled: !endpoint.enabled, onclick: () => act(async () => {
          await request('POST', `/dashboard/v1/webhooks/${encodeURIComponent(endpoint.id)}/deliveries/${encodeURIComponent(d.id)}/redeliver`);
          return `The ${d.type} event is sent again.`;
        }) }, 'Redeliver')),
      ))),
    ));
  }

  async function card(endpoint) {
    const deliveries = await request('GET', `/dashboard/v1/webhooks/${encodeURIComponent(endpoint.id)}/deliveries`);
    const id = `endpoint-${endpoint.id}`;
    const state = endpoint.enabled
      ? endpoint.failing_since ? `Enabled; failing since ${dateTime(endpoint.failing_since)}` : 'Enabled'
      : endpoint.disabled_reason ? `Disabled by Tollgate: ${endpoint.disabled_reason}` : 'Turned off';
    const path = `/dashboard/v1/webhooks/${encodeURIComponent(endpoint.id)}`;
    return el('section', { class: 'card', 'aria-labelledby': id, 'data-endpoint': endpoint.id },
      el('h3', { id }, endpoint.url),
      endpoint.description ? el('p', {}, endpoint.description) : null,
      el('dl', { class: 'facts' },
        el('dt', {}, 'State'), el('dd', { class: 'endpoint-state' }, state),
        el('dt', {}, 'Events'), el('dd', {}, endpoint.types.map((t) => EVENT_LABELS[t] ?? t).join(', ')),
        endpoint.previous_secret_until ? [el('dt', {}, 'Previous secret'), el('dd', {}, `also signs until ${dateTime(endpoint.previous_secret_until)}`)] : null,
      ),
      el('div', { class: 'row' },
        // Each name begins with the visible words (WCAG 2.5.3, label in name) and says which endpoint.
        el('button', { type: 'button', disabled: !endpoint.enabled, 'aria-label': `Send test event to ${endpoint.url}`, onclick: () => act(async () => {
          await request('POST', `${path}/test`);
          return 'Test event sent; its delivery is listed below within a few seconds.';
        }) }, 'Send test event'),
        el('button', { type: 'button', class: 'secondary', 'aria-label': `Rotate secret of ${endpoint.url}`, onclick: async () => {
          const select = el('select', { id: 'overlap' }, OVERLAPS.map(([hours, text]) => el('option', { value: String(hours) }, text)));
          const ok = await confirmDialog('Rotate the signing secret?', el('div', { class: 'stack' }, el('p', {}, 'A new secret signs every delivery from now on. During the overlap the old one signs too, so your endpoint can switch without missing one.'), el('label', { for: 'overlap' }, 'Overlap'), select), 'Rotate secret');
          if (ok) await act(async () => showSecret(await request('POST', `${path}/rotate-secret`, { overlap_hours: Number(select.value) }), 'Secret rotated'));
        } }, 'Rotate secret…'),
        el('button', { type: 'button', class: 'secondary', onclick: () => act(async () => {
          await request('PUT', path, { enabled: !endpoint.enabled });
          return endpoint.enabled ? 'Endpoint turned off.' : 'Endpoint enabled again.';
        }) }, endpoint.enabled ? 'Turn off' : 'Enable'),
        el('button', { type: 'button', class: 'danger', 'aria-label': `Delete ${endpoint.url}`, onclick: async () => {
          const ok = await confirmDialog('Delete this endpoint?', el('p', {}, `Nothing more is sent to ${endpoint.url}; deliveries still queued for it fail.`), 'Delete endpoint', true);
          if (ok) await act(async () => {
            await request('DELETE', path);
            return 'Endpoint deleted.';
          });
        } }, 'Delete…'),
        el('button', { type: 'button', class: 'link', onclick: () => refresh() }, 'Refresh deliveries'),
      ),
      el('h4', {}, `Last deliveries (${deliveries.length})`),
      deliveriesTable(endpoint, deliveries),
    );
  }

  async function refresh() {
    try {
      const endpoints = await request('GET', '/dashboard/v1/webhooks');
      const cards = await Promise.all(endpoints.map(card));
      fill(list, el('h2', { tabindex: '-1' }, 'Your endpoints'), cards.length ? cards : el('p', { class: 'muted' }, 'No endpoints yet: add one above.'));
    } catch (err) {
      showError(problem, err);
    }
  }

  async function mailSettings() {
    const settings = await request('GET', '/dashboard/v1/events/settings');
    // The payment mails are billing's and always sent: said as such, not offered as a switch that would do nothing.
    const always = settings.always_mailed ?? [];
    const switchable = settings.types.filter((t) => !always.includes(t));
    const form = el('form', { class: 'stack', novalidate: true, onsubmit: async (event) => {
      event.preventDefault();
      await act(async () => {
        const mail = Object.fromEntries(switchable.map((t) => [t, form.querySelector(`#mail-${t.replace('.', '-')}`).checked]));
        const thresholds = {};
        for (const api of Object.keys(settings.thresholds)) {
          const text = form.querySelector(`#thresholds-${api}`).value.trim();
          thresholds[api] = text === '' ? null : text.split(/[\s,%]+/).filter(Boolean).map(Number);
        }
        await request('PUT', '/dashboard/v1/events/settings', { mail, thresholds });
        await mailSettings().catch((err) => showError(problem, err));
        return 'Alert settings saved.';
      });
    } },
      el('fieldset', {}, el('legend', {}, 'Mail me when'), switchable.map((t) => {
        const id = `mail-${t.replace('.', '-')}`;
        return el('div', { class: 'choice' }, el('input', { type: 'checkbox', id, checked: settings.mail[t] }), el('label', { for: id }, EVENT_LABELS[t] ?? t));
      })),
      always.length ? el('p', { class: 'note', id: 'always-mailed' }, `Always mailed, whatever is chosen here: ${always.map((t) => (EVENT_LABELS[t] ?? t).toLowerCase()).join(', and ')}. Billing sends them, with what to pay and until when calls are served; their webhooks are yours to choose above.`) : null,
      Object.entries(settings.thresholds).map(([api, values]) => el('div', { class: 'field' },
        el('label', { for: `thresholds-${api}` }, `${apiTitle(api)}: alert at (percent of the monthly quota)`),
        el('input', { id: `thresholds-${api}`, inputmode: 'numeric', autocomplete: 'off', value: values.join(', '), 'aria-describedby': `thresholds-${api}-help` }),
        el('span', { class: 'hint', id: `thresholds-${api}-help` }, 'Up to 5 numbers from 1 to 100; empty for 80 and 100.'),
      )),
      el('button', { type: 'submit' }, 'Save alert settings'),
    );
    fill(mailArea, el('section', { class: 'card', 'aria-labelledby': 'mail-title' }, el('h2', { id: 'mail-title' }, 'Alerts by mail'), form));
  }

  const url = el('input', { id: 'webhook-url', type: 'url', required: true, autocomplete: 'off', placeholder: 'https://example.com/webhooks/tollgate' });
  const description = el('input', { id: 'webhook-description', maxlength: '200', autocomplete: 'off' });
  const add = el('button', { type: 'submit' }, 'Add endpoint');
  const form = el('form', { class: 'stack', novalidate: true, onsubmit: async (event) => {
    event.preventDefault();
    const types = picked(form, 'add-type');
    if (!url.value.trim() || types.length === 0) {
      showError(problem, new Error(url.value.trim() ? 'Pick at least one event to send.' : 'Give the endpoint’s https:// URL.'));
      (url.value.trim() ? form.querySelector('input[name="add-type"]') : url).focus();
      return;
    }
    add.disabled = true;
    await act(async () => {
      const made = await request('POST', '/dashboard/v1/webhooks', { url: url.value.trim(), types, description: description.value.trim() });
      url.value = '';
      description.value = '';
      showSecret(made, 'Endpoint added');
    });
    add.disabled = false;
  } },
    el('div', { class: 'field' }, el('label', { for: 'webhook-url' }, 'Endpoint URL'), url),
    el('div', { class: 'field' }, el('label', { for: 'webhook-description' }, 'Description (optional)'), description),
    checkboxes('add-type', ['quota.threshold_reached', 'key.expiring', 'key.revoked']),
    add,
  );
  main.append(el('section', { class: 'card', 'aria-labelledby': 'add-title' }, el('h2', { id: 'add-title' }, 'Add an endpoint'), form), list, mailArea);
  await Promise.all([refresh(), mailSettings().catch((err) => showError(problem, err))]);
}

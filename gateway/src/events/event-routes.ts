import { randomBytes } from 'node:crypto';
import express, { Router } from 'express';
import type { Request } from 'express';
import { AppError, sendOk } from '@tollgate/envelope/core';
import type { RouteDoc } from '@tollgate/envelope/core';
import { ALWAYS_MAILED, DEFAULT_THRESHOLDS, EVENT_TYPES, MAILED_BY_DEFAULT } from '../domain/event-types';
import type { EventType } from '../domain/event-types';
import type { PlanTable } from '../domain/plans';
import type { Account } from '../data/account-store';
import { EndpointLimitError, PendingLimitError } from '../data/event-store';
import type { Delivery, EventPreferences, EventStore, WebhookEndpoint } from '../data/event-store';
import { apiPlansOf, createBodyParser } from '../http/body';
import type { ActionLimiter } from '../http/account-limits';
import { sendAccepted, sendCreated } from '../http/send-created';
import type { EventBus } from './event-bus';
import { webhookPayload } from './event-bus';
import { CREATE_ENDPOINT_BODY, DELIVERY_SCHEMA, ENDPOINT_SCHEMA, ENDPOINT_WITH_SECRET_SCHEMA, EVENT_SETTINGS_BODY, EVENT_SETTINGS_SCHEMA, ROTATE_BODY, UPDATE_ENDPOINT_BODY } from './event-schemas';
import { TargetRefusedError, checkEndpointUrl } from './webhook-target';
import type { TargetRules } from './webhook-target';
import { newWebhookSecret } from './webhook-signing';

const CALLER = ['BAD_REQUEST', 'UNAUTHORIZED', 'FORBIDDEN', 'STORE_UNAVAILABLE'] as const;
/** Endpoints an account may have. */
export const MAX_ENDPOINTS = 10;
const list = (schema: object) => ({ type: 'array', items: schema });

/** The event routes, described once (OpenAPI at `/docs`, contract tests). */
export const EVENT_ROUTES = {
  settings: { method: 'get', path: '/dashboard/v1/events/settings', summary: 'Which events are mailed to you, and your quota alert thresholds per API', data: EVENT_SETTINGS_SCHEMA, message: 'Event settings', errors: [...CALLER] },
  updateSettings: { method: 'put', path: '/dashboard/v1/events/settings', summary: 'Switch mailed events on or off, and set an API’s quota thresholds (null: 80 and 100)', body: EVENT_SETTINGS_BODY, data: EVENT_SETTINGS_SCHEMA, message: 'Event settings saved', errors: [...CALLER] },
  listEndpoints: { method: 'get', path: '/dashboard/v1/webhooks', summary: 'Your webhook endpoints (never their secrets)', data: list(ENDPOINT_SCHEMA), message: 'Webhook endpoints', errors: [...CALLER] },
  createEndpoint: { method: 'post', path: '/dashboard/v1/webhooks', summary: `Add a webhook endpoint (https; at most ${MAX_ENDPOINTS}); its signing secret is shown once`, body: CREATE_ENDPOINT_BODY, data: ENDPOINT_WITH_SECRET_SCHEMA, message: 'Webhook endpoint added; keep its secret, it is shown once', successStatus: 201, errors: ['CONFLICT', ...CALLER] },
  updateEndpoint: { method: 'put', path: '/dashboard/v1/webhooks/{id}', summary: 'Change an endpoint’s URL, event types or description, or turn it off and on', body: UPDATE_ENDPOINT_BODY, data: ENDPOINT_SCHEMA, message: 'Webhook endpoint saved', errors: ['NOT_FOUND', ...CALLER] },
  deleteEndpoint: { method: 'delete', path: '/dashboard/v1/webhooks/{id}', summary: 'Delete an endpoint (deliveries still queued for it fail)', data: ENDPOINT_SCHEMA, message: 'Webhook endpoint deleted', errors: ['NOT_FOUND', ...CALLER] },
  rotateSecret: { method: 'post', path: '/dashboard/v1/webhooks/{id}/rotate-secret', summary: 'A new signing secret, shown once; the previous one keeps signing beside it for the overlap', body: ROTATE_BODY, data: ENDPOINT_WITH_SECRET_SCHEMA, message: 'Secret rotated; keep the new one, it is shown once', errors: ['NOT_FOUND', ...CALLER] },
  testEndpoint: { method: 'post', path: '/dashboard/v1/webhooks/{id}/test', summary: 'Send a webhook.test event to the endpoint now (test events and redeliveries: a number an hour per account)', data: DELIVERY_SCHEMA, message: 'Test event queued', successStatus: 202, errors: ['NOT_FOUND', 'CONFLICT', 'RATE_LIMITED', ...CALLER] },
  deliveries: { method: 'get', path: '/dashboard/v1/webhooks/{id}/deliveries', summary: 'The endpoint’s last 100 deliveries, newest first: status, latency, attempts', data: list(DELIVERY_SCHEMA), message: 'Deliveries', errors: ['NOT_FOUND', ...CALLER] },
  redeliver: { method: 'post', path: '/dashboard/v1/webhooks/{id}/deliveries/{delivery}/redeliver', summary: 'Send a delivery again now, with the same webhook-id and body (test events and redeliveries: a number an hour per account)', data: DELIVERY_SCHEMA, message: 'Redelivery queued', successStatus: 202, errors: ['NOT_FOUND', 'CONFLICT', 'RATE_LIMITED', ...CALLER] },
} satisfies Record<string, RouteDoc>;

/** What the event routes need. */
export interface EventRoutesDeps {
  plans: PlanTable;
  eventStore: EventStore;
  /** The event store as a caller changes it: each change recorded in the audit log as theirs. */
  changesBy: (req: Request, caller: { account: Account; key?: { id: string } }) => EventStore;
  bus: EventBus;
  rules: TargetRules;
  clock: () => number;
  authenticate: (req: Request) => Promise<{ account: Account; key?: { id: string } }>;
  /** Told after the account's own thresholds changed (this gateway's alerts use them at once). */
  thresholdsChanged: () => Promise<void>;
  /** Test events and redeliveries per account and hour. */
  limit: ActionLimiter;
}

const ENDPOINT_ID = /^whe_[0-9a-f]{24}$/;
const DELIVERY_ID = /^dlv_[0-9a-f]{24}$/;

/** What an owner sees of an endpoint. */
export function endpointView(e: WebhookEndpoint): Record<string, unknown> {
  return { id: e.id, url: e.url, description: e.description, types: e.types, enabled: e.enabled, disabled_reason: e.disabled_reason, created_at: e.created_at, failing_since: e.failing_since, previous_secret_until: e.previous_secret_until };
}
const deliveryView = (d: Delivery): Record<string, unknown> => {
  const { account_id: _account, ...rest } = d;
  return rest;
};

function settingsView(prefs: EventPreferences, plans: PlanTable): Record<string, unknown> {
  const mail = Object.fromEntries(EVENT_TYPES.map((t) => [t, ALWAYS_MAILED.includes(t) || (prefs.mail[t] ?? MAILED_BY_DEFAULT[t])]));
  const thresholds = Object.fromEntries(Object.keys(plans).map((api) => [api, prefs.thresholds[api] ?? [...DEFAULT_THRESHOLDS]]));
  return { types: [...EVENT_TYPES], mail, always_mailed: [...ALWAYS_MAILED], thresholds, custom_thresholds: Object.keys(prefs.thresholds) };
}

/** `/events/settings`: which events are mailed, and the account's own thresholds. */
function addSettingsRoutes(router: Router, deps: EventRoutesDeps): void {
  const { eventStore, authenticate, plans } = deps;
  const parseSettings = createBodyParser<{ mail?: Partial<Record<EventType, boolean>>; thresholds?: Record<string, number[] | null> }>(EVENT_SETTINGS_BODY);
  router.get('/events/settings', async (req, res) => {
    const { account } = await authenticate(req);
    sendOk(res, settingsView(await eventStore.getPreferences(account.id), plans), EVENT_ROUTES.settings.message);
  });
  router.put('/events/settings', async (req, res) => {
    const caller = await authenticate(req);
    const { account } = caller;
    const body = parseSettings(req.body);
    const mail = { ...body.mail };
    for (const type of ALWAYS_MAILED) {
      if (mail[type] === false) throw new AppError('BAD_REQUEST', `${type} is always mailed: billing sends it with what to pay and until when calls are served, whatever is chosen here (its webhook is yours to choose)`, { details: { parameter: `mail.${type}` } });
      delete mail[type];
    }
    const prefs = await eventStore.getPreferences(account.id);
    for (const [api, list] of Object.entries(body.thresholds ?? {})) {
      apiPlansOf(plans, api, 'thresholds');
      if (list === null) delete prefs.thresholds[api];
      else prefs.thresholds[api] = [...list].sort((a, b) => a - b);
    }
    prefs.mail = { ...prefs.mail, ...mail };
    await deps.changesBy(req, caller).setPreferences(account.id, prefs);
    if (body.thresholds) await deps.thresholdsChanged();
    sendOk(res, settingsView(prefs, plans), EVENT_ROUTES.updateSettings.message);
  });
}

/** `/dashboard/v1/events/settings` and `/dashboard/v1/webhooks/*`, with the dashboard's caller check passed in. */
export function createEventRoutes(deps: EventRoutesDeps): Router {
  const { eventStore, authenticate } = deps;
  const parseCreate = createBodyParser<{ url: string; types: EventType[]; description?: string }>(CREATE_ENDPOINT_BODY);
  const parseUpdate = createBodyParser<{ url?: string; types?: EventType[]; description?: string; enabled?: boolean }>(UPDATE_ENDPOINT_BODY);
  const parseRotate = createBodyParser<{ overlap_hours?: number }>(ROTATE_BODY);
  const router = Router();
  router.use(['/events', '/webhooks'], express.json({ limit: '8kb' }));
  addSettingsRoutes(router, deps);

  const checkedUrl = async (raw: string): Promise<string> => {
    try {
      return (await checkEndpointUrl(raw, deps.rules)).href;
    } catch (err) {
      if (err instanceof TargetRefusedError) throw new AppError('BAD_REQUEST', err.message, { details: { parameter: 'url' } });
      throw err;
    }
  };
  const own = async (req: Request): Promise<{ account: Account; endpoint: WebhookEndpoint; changes: EventStore }> => {
    const caller = await authenticate(req);
    const { account } = caller;
    const id = String(req.params.id);
    const endpoint = ENDPOINT_ID.test(id) ? await eventStore.getEndpoint(account.id, id) : undefined;
    if (!endpoint) throw new AppError('NOT_FOUND', 'no webhook endpoint of this account has that id');
    return { account, endpoint, changes: deps.changesBy(req, caller) };
  };
  const enabledOnly = (endpoint: WebhookEndpoint): void => {
    if (!endpoint.enabled) throw new AppError('CONFLICT', 'this endpoint is disabled: enable it first (PUT with enabled: true)', { details: { reason: 'disabled' } });
  };
  // A test event or redelivery: counted against the hour's sends, then queued unless the account's deliveries waiting are at their cap.
  const send = async (accountId: string, queue: () => Promise<Delivery>): Promise<Delivery> => {
    await deps.limit(accountId, 'webhook_send');
    try {
      return await queue();
    } catch (err) {
      if (!(err instanceof PendingLimitError)) throw err;
      throw new AppError('RATE_LIMITED', `Your account has ${err.max} webhook deliveries waiting, the most it may; new ones are refused until some are delivered or given up. Try again in a minute.`, {
        cause: err,
        headers: { 'Retry-After': '60' },
        details: { limit: 'pending_deliveries', max: err.max },
      });
    }
  };

  router.get('/webhooks', async (req, res) => {
    const { account } = await authenticate(req);
    sendOk(res, (await eventStore.listEndpoints(account.id)).map(endpointView), EVENT_ROUTES.listEndpoints.message);
  });
  router.post('/webhooks', async (req, res) => {
    const caller = await authenticate(req);
    const { account } = caller;
    const body = parseCreate(req.body);
    const endpoint: WebhookEndpoint = {
      id: `whe_${randomBytes(12).toString('hex')}`,
      account_id: account.id,
      url: await checkedUrl(body.url),
      description: body.description ?? '',
      types: body.types,
      enabled: true,
      disabled_reason: null,
      created_at: new Date(deps.clock()).toISOString(),
      secret: newWebhookSecret(),
      previous_secret: null,
      previous_secret_until: null,
      failing_since: null,
    };
    try {
      await deps.changesBy(req, caller).createEndpoint(endpoint, MAX_ENDPOINTS);
    } catch (err) {
      if (err instanceof EndpointLimitError) throw new AppError('CONFLICT', `${err.message}; delete one first`, { details: { reason: 'endpoint_limit', max: err.max } });
      throw err;
    }
    sendCreated(res, { ...endpointView(endpoint), secret: endpoint.secret }, EVENT_ROUTES.createEndpoint.message);
  });
  router.put('/webhooks/:id', async (req, res) => {
    const { endpoint, changes } = await own(req);
    const body = parseUpdate(req.body);
    const next: WebhookEndpoint = { ...endpoint, ...(body.types ? { types: body.types } : {}), ...(body.description === undefined ? {} : { description: body.description }) };
    if (body.url !== undefined) next.url = await checkedUrl(body.url);
    if (body.enabled !== undefined) Object.assign(next, body.enabled ? { enabled: true, disabled_reason: null, failing_since: null } : { enabled: false, disabled_reason: null });
    if (!(await changes.putEndpoint(next))) throw new AppError('NOT_FOUND', 'no webhook endpoint of this account has that id');
    sendOk(res, endpointView(next), EVENT_ROUTES.updateEndpoint.message);
  });
  router.delete('/webhooks/:id', async (req, res) => {
    const { account, endpoint, changes } = await own(req);
    await changes.deleteEndpoint(account.id, endpoint.id);
    sendOk(res, endpointView(endpoint), EVENT_ROUTES.deleteEndpoint.message);
  });
  router.post('/webhooks/:id/rotate-secret', async (req, res) => {
    const { endpoint, changes } = await own(req);
    const overlapMs = (parseRotate(req.body).overlap_hours ?? 24) * 3_600_000;
    const next: WebhookEndpoint = { ...endpoint, secret: newWebhookSecret(), previous_secret: overlapMs ? endpoint.secret : null, previous_secret_until: overlapMs ? new Date(deps.clock() + overlapMs).toISOString() : null };
    if (!(await changes.putEndpoint(next))) throw new AppError('NOT_FOUND', 'no webhook endpoint of this account has that id');
    sendOk(res, { ...endpointView(next), secret: next.secret }, EVENT_ROUTES.rotateSecret.message);
  });
  router.post('/webhooks/:id/test', async (req, res) => {
    const { account, endpoint } = await own(req);
    enabledOnly(endpoint);
    const payload = webhookPayload('webhook.test', deps.clock(), { account_id: account.id, endpoint_id: endpoint.id, message: 'A test event from Tollgate: your endpoint receives and verifies webhooks.' });
    sendAccepted(res, deliveryView(await send(account.id, () => deps.bus.deliverTo(endpoint, 'webhook.test', payload))), EVENT_ROUTES.testEndpoint.message);
  });
  router.get('/webhooks/:id/deliveries', async (req, res) => {
    const { account, endpoint } = await own(req);
    sendOk(res, (await eventStore.listDeliveries(account.id, endpoint.id)).map(deliveryView), EVENT_ROUTES.deliveries.message);
  });
  router.post('/webhooks/:id/deliveries/:delivery/redeliver', async (req, res) => {
    const { account, endpoint } = await own(req);
    const id = String(req.params.delivery);
    const delivery = DELIVERY_ID.test(id) ? await eventStore.getDelivery(account.id, id) : undefined;
    if (!delivery || delivery.endpoint_id !== endpoint.id) throw new AppError('NOT_FOUND', 'no delivery of this endpoint has that id');
    enabledOnly(endpoint);
    sendAccepted(res, deliveryView(await send(account.id, () => deps.bus.deliverTo(endpoint, delivery.type, delivery.payload, delivery.message_id))), EVENT_ROUTES.redeliver.message);
  });
  return router;
}

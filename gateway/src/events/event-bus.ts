import { randomBytes } from 'node:crypto';
import type { Logger } from '@tollgate/envelope';
import { ALWAYS_MAILED, MAILED_BY_DEFAULT, MAILED_TO_BILLING } from '../domain/event-types';
import type { DeliveredType, EventType } from '../domain/event-types';
import type { AccountStore } from '../data/account-store';
import { PendingLimitError } from '../data/event-store';
import { billingRecipients } from '../data/team-recipients';
import type { TeamStore } from '../data/team-store';
import type { Delivery, EventStore, WebhookEndpoint } from '../data/event-store';
import type { Mailer } from '../mail/mailer';
import { eventMail } from './event-mail';

/** One thing to tell an account. `data` never holds a secret. */
export interface AccountEvent {
  accountId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** False: webhooks only, for a change whose room mails it itself (billing). */
  mail?: false;
}

/** Tells accounts what happened: by mail (unless switched off) and to their webhook endpoints (queued). */
export interface EventBus {
  /** Mails and queues the event; resolves when both are done (a failure is logged, never thrown). */
  publish(event: AccountEvent): Promise<void>;
  /** Queues a delivery of `type` to one endpoint (a test event, a redelivery), due now; throws {@link PendingLimitError} at the account's cap. */
  deliverTo(endpoint: WebhookEndpoint, type: DeliveredType, payload: string, messageId?: string): Promise<Delivery>;
}

/** What the bus needs. */
export interface EventBusDeps {
  eventStore: EventStore;
  accountStore: AccountStore;
  /** The members a plan change is mailed to (owners and billing). */
  teamStore: TeamStore;
  mailer: Mailer;
  clock: () => number;
  logger: Logger;
  portalUrl: string;
  /** Told when deliveries were queued, so the worker takes them at once. */
  queued: () => void;
  /** Deliveries an account may have pending; past it, new ones are refused. */
  maxPending: number;
}

const id = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** The body every webhook gets: `{type, timestamp, data}`. */
export function webhookPayload(type: DeliveredType, atMs: number, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: new Date(atMs).toISOString(), data });
}

export function createEventBus(deps: EventBusDeps): EventBus {
  const { eventStore, logger } = deps;
  const delivery = (endpoint: WebhookEndpoint, type: DeliveredType, payload: string, nowMs: number, messageId = id('msg')): Delivery => {
    const at = new Date(nowMs).toISOString();
    return {
      id: id('dlv'),
      account_id: endpoint.account_id,
      endpoint_id: endpoint.id,
      message_id: messageId,
      type,
      payload,
      created_at: at,
      state: 'pending',
      attempts: 0,
      next_attempt_at: at,
      last_attempt_at: null,
      last_status: null,
      last_error: null,
      last_latency_ms: null,
    };
  };

  const mail = async (event: AccountEvent, mailed: boolean): Promise<void> => {
    if (!mailed) return;
    const account = await deps.accountStore.getAccount(event.accountId);
    if (!account) return;
    const to = MAILED_TO_BILLING.includes(event.type) ? await billingRecipients(deps.teamStore, account) : account.email ? [account.email] : [];
    // One mail per person: members do not learn each other's addresses from it.
    await Promise.all(to.map((address) => deps.mailer.send(eventMail(address, event.type, event.data, deps.portalUrl))));
  };
  const queue = async (event: AccountEvent, nowMs: number): Promise<void> => {
    const endpoints = (await eventStore.listEndpoints(event.accountId)).filter((e) => e.enabled && e.types.includes(event.type));
    if (!endpoints.length) return;
    const payload = webhookPayload(event.type, nowMs, { account_id: event.accountId, ...event.data });
    // One message id for every endpoint: the same event, deduped on it by whoever receives it twice.
    const messageId = id('msg');
    const made = endpoints.map((e) => delivery(e, event.type, payload, nowMs, messageId));
    try {
      await eventStore.enqueue(made, deps.maxPending);
    } catch (err) {
      if (!(err instanceof PendingLimitError)) throw err;
      // Refused, never dropped unseen: each is kept as failed, with why, in the endpoint's deliveries (and may be redelivered).
      const why = `not sent: the account had ${err.max} deliveries waiting, the most it may`;
      for (const refused of made) await eventStore.saveDelivery({ ...refused, state: 'failed', next_attempt_at: null, last_error: why });
      logger.warn({ account_id: event.accountId, type: event.type, max_pending: err.max, endpoints: made.length }, 'event not queued for webhooks: the account has the most deliveries pending; kept as failed');
      return;
    }
    deps.queued();
  };

  return {
    async publish(event) {
      const nowMs = deps.clock();
      try {
        const prefs = await eventStore.getPreferences(event.accountId);
        const mailed = event.mail !== false && !ALWAYS_MAILED.includes(event.type) && (prefs.mail[event.type] ?? MAILED_BY_DEFAULT[event.type]);
        const [mailing, queueing] = await Promise.allSettled([mail(event, mailed), queue(event, nowMs)]);
        for (const [what, result] of [['mail', mailing], ['webhooks', queueing]] as const) {
          if (result.status === 'rejected') logger.error({ err: (result.reason as Error).message, account_id: event.accountId, type: event.type }, `event ${what} not sent`);
        }
      } catch (err) {
        logger.error({ err: (err as Error).message, account_id: event.accountId, type: event.type }, 'event not published: the store did not answer');
      }
    },
    async deliverTo(endpoint, type, payload, messageId) {
      const made = delivery(endpoint, type, payload, deps.clock(), messageId);
      await eventStore.enqueue([made], deps.maxPending);
      deps.queued();
      return made;
    },
  };
}

import type { Mail } from '../mail/mailer';
import type { EventType } from '../domain/event-types';

/** What a mailed event says: its subject and its lines, from the event's data. */
type Wording = (data: Record<string, unknown>) => { subject: string; lines: string[] };

const n = (value: unknown): string => (typeof value === 'number' ? value.toLocaleString('en') : String(value ?? ''));
const utc = (value: unknown): string => (typeof value === 'string' ? `${value.slice(0, 16).replace('T', ' ')} UTC` : '');

const WORDING: Record<EventType, Wording> = {
  'quota.threshold_reached': (d) => ({
    subject: `Your Tollgate ${d.api} quota is ${d.threshold}% used`,
    lines: [
      `Your account has used ${n(d.used)} of the ${n(d.quota)} calls its ${d.api} ${d.plan} plan allows this month (${d.threshold}%).`,
      Number(d.threshold) >= 100 ? `Further calls are refused (429) until the quota resets at ${utc(d.resets_at)}, unless you take a larger plan.` : `The quota resets at ${utc(d.resets_at)}. A larger plan raises it at once.`,
    ],
  }),
  'quota.reset': (d) => ({ subject: `Your Tollgate ${d.api} quota has reset`, lines: [`A new month has begun: your ${d.api} ${d.plan} plan has its ${n(d.quota)} calls again.`] }),
  'key.expiring': (d) => ({
    subject: `Tollgate: the key ${d.key_name} expires in ${n(d.days)} day${d.days === 1 ? '' : 's'}`,
    lines: [`The key ${d.key_id} ("${d.key_name}", …${d.key_last4}) stops working at ${utc(d.expires_at)}.`, 'Create a new key and move your clients to it before then.'],
  }),
  'key.revoked': (d) => ({ subject: `Tollgate: the key ${d.key_name} was revoked`, lines: [`The key ${d.key_id} ("${d.key_name}", …${d.key_last4}) was revoked at ${utc(d.revoked_at)}; calls with it are refused (401).`, 'If you did not do this, sign in and look at your keys.'] }),
  'subscription.changed': (d) => ({ subject: `Your Tollgate ${d.api} subscription changed`, lines: [d.plan ? `Your ${d.api} subscription is now the ${d.plan} plan (${d.status}).` : `Your ${d.api} subscription was cancelled.`] }),
  'payment.failed': (d) => ({ subject: `Payment failed for your Tollgate ${d.api} plan`, lines: [`A payment for the ${d.api} ${d.plan} plan failed.`] }),
  'payment.recovered': (d) => ({ subject: `Payment received for your Tollgate ${d.api} plan`, lines: [`The ${d.api} ${d.plan} plan is paid and active again.`] }),
  'subscription.canceled': (d) => ({ subject: `Your Tollgate ${d.api} ${d.plan} plan has ended`, lines: [`The paid ${d.api} ${d.plan} plan has ended${d.reason ? ` (${String(d.reason)})` : ''}.`] }),
};

/** The mail of an event, with where to change what is mailed. */
export function eventMail(to: string, type: EventType, data: Record<string, unknown>, portalUrl: string): Mail {
  const { subject, lines } = WORDING[type](data);
  return { to, subject, text: [...lines, '', `Your usage: ${portalUrl}/portal/usage`, `Choose which mails you get, and add webhooks: ${portalUrl}/portal/webhooks`].join('\n') };
}

/** The mail to an endpoint's owner when the gateway disabled it. */
export function endpointDisabledMail(to: string, url: string, reason: string, portalUrl: string): Mail {
  return {
    to,
    subject: 'Your Tollgate webhook endpoint was disabled',
    text: [`The webhook endpoint ${url} was disabled: ${reason}.`, 'Nothing more is sent to it until you enable it again on the Webhooks page, where its last deliveries are listed:', `${portalUrl}/portal/webhooks`].join('\n'),
  };
}

import type { SchemaObject } from 'ajv';
import { ACCOUNT_ID_PATTERN, KEY_ID_PATTERN } from '../domain/api-key';
import { USAGE_ITEM_SCHEMA } from '../domain/usage-report';
import { TEAM_ROLES } from '../domain/team-roles';
import { HISTORY_OUTCOMES } from '../data/account-store';
import { SUBSCRIPTION_SCHEMA } from './schemas';

const time = { type: 'string', format: 'date-time' };
const PERSON_ID = { type: 'string', pattern: '^per_[0-9a-f]{24}$' };
const maybeTime = { type: ['string', 'null'], format: 'date-time' };

const closed = (properties: Record<string, unknown>, extra: string[] = []): SchemaObject => ({ type: 'object', additionalProperties: false, required: [...Object.keys(properties), ...extra], properties });

/** JSON Schema of an account. */
export const ACCOUNT_SCHEMA = closed({
  id: { type: 'string', pattern: ACCOUNT_ID_PATTERN },
  email: { type: ['string', 'null'], description: 'Lower-cased; unique' },
  email_verified: { type: 'boolean', description: 'Whether the address was proven by a mailed code (or vouched for by an operator); until then only the playground is open' },
  name: { type: 'string' },
  status: { type: 'string', enum: ['active', 'suspended'] },
  created_at: time,
  subscriptions: { type: 'object', additionalProperties: SUBSCRIPTION_SCHEMA, description: 'Subscriptions by API name, shared by all the account’s keys' },
});

const apiKeyProperties = {
  id: { type: 'string', pattern: KEY_ID_PATTERN },
  account_id: { type: 'string', pattern: ACCOUNT_ID_PATTERN },
  name: { type: 'string' },
  created_at: time,
  prefix: { type: 'string', description: 'The secret’s first characters' },
  last4: { type: 'string', description: 'The secret’s last four characters' },
  expires_at: maybeTime,
  revoked_at: maybeTime,
  last_used_at: { ...maybeTime, description: 'Updated at most once a minute' },
  rolled_at: maybeTime,
  grace_until: { ...maybeTime, description: 'Until when the secret before the last roll still works' },
  created_by: {
    ...closed({ person_id: PERSON_ID, email: { type: 'string', description: 'The person’s address (as it is now, while they are a person here; else as it was when they made the key)' } }),
    type: ['object', 'null'],
    description: 'The team member who made the key in the portal or with a session; null for a key made before teams, by an operator, or with another key',
  },
};

/** JSON Schema of a team member as the team routes, the export and the admin API show one. */
export const MEMBER_SCHEMA = closed({
  person_id: PERSON_ID,
  email: { type: ['string', 'null'] },
  name: { type: ['string', 'null'] },
  role: { type: 'string', enum: [...TEAM_ROLES] },
  joined_at: time,
  invited_by: { type: ['string', 'null'], description: 'the person who invited or added them; null for the first owner and people added by an operator' },
});

/** JSON Schema of a key (never its secret). */
export const API_KEY_SCHEMA = closed(apiKeyProperties);

/** JSON Schema of a key just created or rolled: the record and its secret, shown this once. */
export const API_KEY_WITH_SECRET_SCHEMA = closed({ ...apiKeyProperties, key: { type: 'string', description: 'The secret API key; shown only in this answer' } });

/** JSON Schema of one page of a listing. */
export function pageSchema(items: SchemaObject): SchemaObject {
  return closed({ items: { type: 'array', items }, next_cursor: { type: ['string', 'null'], description: 'Pass as `cursor` for the next page; null on the last' } });
}

/** JSON Schema of an account's month-to-date usage. */
export const ACCOUNT_USAGE_SCHEMA = closed({ account_id: { type: 'string', pattern: ACCOUNT_ID_PATTERN }, apis: { type: 'array', items: USAGE_ITEM_SCHEMA } });

/** JSON Schema of an account's daily history. */
export const HISTORY_SCHEMA = closed({
  account_id: { type: 'string', pattern: ACCOUNT_ID_PATTERN },
  from: { type: 'string', format: 'date' },
  to: { type: 'string', format: 'date' },
  days: {
    type: 'array',
    items: closed({
      day: { type: 'string', format: 'date' },
      api: { type: 'string' },
      counts: closed(Object.fromEntries(HISTORY_OUTCOMES.map((o) => [o, { type: 'integer', minimum: 0 }]))),
    }),
  },
});

/** JSON Schema of accounts found (account-search.ts): each with the keys that matched, when found by a key. */
export const ACCOUNT_MATCHES_SCHEMA = closed({ items: { type: 'array', items: closed({ account: ACCOUNT_SCHEMA, keys: { type: 'array', items: API_KEY_SCHEMA } }) } });

/** JSON Schema of an audit log entry. */
export const AUDIT_ENTRY_SCHEMA = closed({
  id: { type: 'string', description: 'Unique; entries are listed in the order they were added' },
  at: time,
  account_id: { type: ['string', 'null'], description: 'The account changed' },
  actor: closed({
    type: { type: 'string', enum: ['operator', 'customer', 'system'] },
    id: { type: 'string', description: 'Which one: an operator’s email or `admin token` (or `cli:<user>@<host>`), the customer’s account or key id, or what the system was doing' },
    via: { type: 'string', description: 'console, admin-api, cli, portal, dashboard-api, sign-in, billing, …' },
  }),
  from: { type: ['string', 'null'], description: 'The client address of the request, or the host of a CLI run' },
  action: { type: 'string', description: 'account.create, account.suspend, account.reactivate, account.email_verified, account.sign_in, account.verification_sent, account.email_change, account.delete, subscription.set, subscription.cancel, key.create, key.roll, key.end_grace, key.revoke, billing.…' },
  target: { type: ['string', 'null'], description: 'The key, or the API whose subscription, that changed' },
  details: { type: 'object', description: 'What changed: before and after, or what was made' },
});

import type { QuerySchema } from '@tollgate/envelope/core';
import { MAX_EMAIL_LENGTH } from '../domain/email';

// Bodies and queries of the account and key routes, shared by the admin API and the dashboard.

/** Longest roll grace: a week, long enough to redeploy every client of a key. */
export const MAX_GRACE_SECONDS = 604_800;

const email = { type: 'string', minLength: 1, maxLength: MAX_EMAIL_LENGTH, description: 'an email address' };
const page = {
  limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  cursor: { type: 'string', minLength: 1, maxLength: 200, description: 'the next_cursor of the page before' },
};
const day = { type: 'string', maxLength: 10, description: 'a UTC day, YYYY-MM-DD' };

/** Setting a plan: shared by the account and the legacy key subscription routes. */
export const SUBSCRIBE_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['plan'],
  properties: {
    plan: { type: 'string', minLength: 1, description: 'a plan name' },
    status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
    comp: { type: 'boolean', default: false, description: 'true: the plan is granted without payment (a comp), and shown so' },
  },
};

export const CREATE_ACCOUNT_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    email: { ...email, description: 'an email address (stored lower-cased; unique)' },
    name: { type: 'string', minLength: 1, maxLength: 200, description: 'a non-empty string of at most 200 characters' },
    subscriptions: { type: 'object', maxProperties: 100, additionalProperties: { type: 'string' }, description: 'an object mapping API names to plan names' },
  },
};

export const LIST_ACCOUNTS_QUERY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...page,
    email: { ...email, description: 'an email address: only the account holding it' },
    order: { type: 'string', enum: ['oldest', 'newest'], default: 'oldest', description: 'oldest (creation order) or newest first' },
  },
};

/** What finding accounts takes: one string, whatever it is (see account-search.ts). */
export const FIND_ACCOUNTS_QUERY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['q'],
  properties: { q: { type: 'string', minLength: 1, maxLength: 300, description: 'an email address, an account id (acc_…), a key id (key_…), a key as shown (tg_…, or tg_……last4) or a key’s full secret' } },
};

export const LIST_KEYS_QUERY: QuerySchema = { type: 'object', additionalProperties: false, properties: page };

export const CREATE_KEY_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 100, description: 'a non-empty string of at most 100 characters, e.g. where the key is used' },
    expires_at: { type: 'string', maxLength: 40, description: 'an ISO 8601 date-time in the future, e.g. 2027-01-31T00:00:00Z' },
  },
};

export const ROLL_KEY_BODY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    grace_seconds: { type: 'integer', minimum: 0, maximum: MAX_GRACE_SECONDS, default: 86_400, description: 'how long the old secret keeps working (0: not at all)' },
  },
};

export const HISTORY_QUERY: QuerySchema = { type: 'object', additionalProperties: false, properties: { from: day, to: day } };

/** Reading the audit log: a page at a time, newest first unless asked, one account's or all. */
export const AUDIT_QUERY: QuerySchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 500, default: 50 },
    cursor: page.cursor,
    account_id: { type: 'string', pattern: '^acc_[0-9a-f]{24}$', description: 'an account id: only its entries' },
    order: { type: 'string', enum: ['newest', 'oldest'], default: 'newest', description: 'newest or oldest first' },
  },
};

/** Exporting the audit log: every entry, oldest first, one account's or all. */
export const AUDIT_EXPORT_QUERY: QuerySchema = { type: 'object', additionalProperties: false, properties: { account_id: AUDIT_QUERY.properties.account_id! } };

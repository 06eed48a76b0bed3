import type { RouteDoc } from '@tollgate/envelope/core';
import { AUDIT_QUERY, CREATE_ACCOUNT_BODY, CREATE_KEY_BODY, FIND_ACCOUNTS_QUERY, HISTORY_QUERY, LIST_ACCOUNTS_QUERY, LIST_KEYS_QUERY, ROLL_KEY_BODY, SUBSCRIBE_BODY } from '../http/account-requests';
import { ACCOUNT_MATCHES_SCHEMA, ACCOUNT_SCHEMA, ACCOUNT_USAGE_SCHEMA, API_KEY_SCHEMA, API_KEY_WITH_SECRET_SCHEMA, AUDIT_ENTRY_SCHEMA, HISTORY_SCHEMA, pageSchema } from '../http/account-schemas';

const admin = ['UNAUTHORIZED', 'NOT_FOUND', 'STORE_UNAVAILABLE'] as const;
const path = '/admin/v1/accounts/{id}';

/** The admin API's account and key routes, described once (OpenAPI, contract tests). */
export const ADMIN_ACCOUNT_ROUTES = {
  createAccount: { method: 'post', path: '/admin/v1/accounts', summary: 'Create an account', description: 'The email is stored lower-cased; one already held by an account is refused with 409, naming that account in `error.details.account_id`.', body: CREATE_ACCOUNT_BODY, data: ACCOUNT_SCHEMA, message: 'Account created', successStatus: 201, errors: ['BAD_REQUEST', 'CONFLICT', ...admin] },
  getAccount: { method: 'get', path, summary: 'Read an account and its subscriptions', data: ACCOUNT_SCHEMA, message: 'Account retrieved', errors: [...admin] },
  listAccounts: { method: 'get', path: '/admin/v1/accounts', summary: 'List accounts in creation order (or newest first), a page at a time, or the one holding an email', query: LIST_ACCOUNTS_QUERY, data: pageSchema(ACCOUNT_SCHEMA), message: 'Accounts listed', errors: ['BAD_REQUEST', ...admin] },
  findAccounts: {
    method: 'get',
    path: '/admin/v1/accounts/search',
    summary: 'Find accounts by an email, an account or key id, a key as shown or its full secret',
    description:
      'Each is an index lookup, instant at any number of accounts: an email (exact, any case) or `acc_…`, with the account’s first 50 keys; `key_…`; a key’s full secret (looked up by its hash, as the gateway does; send it in the body of `POST /admin/v1/accounts/search` rather than in a URL, which logs keep); or the prefix stored on a key’s record, also as keys are shown (`tg_……last4`, which narrows to keys ending so). A prefix lists at most 50 keys, with their accounts.',
    query: FIND_ACCOUNTS_QUERY,
    data: ACCOUNT_MATCHES_SCHEMA,
    message: 'Accounts found',
    errors: ['BAD_REQUEST', ...admin],
  },
  findAccountsBySecret: {
    method: 'post',
    path: '/admin/v1/accounts/search',
    summary: 'Find accounts as the GET route does, the query in the body: the way to look a key up by its full secret',
    description: 'The same `q` and answer as `GET /admin/v1/accounts/search`; a body is not written to access logs as a URL is.',
    body: FIND_ACCOUNTS_QUERY,
    data: ACCOUNT_MATCHES_SCHEMA,
    message: 'Accounts found',
    errors: ['BAD_REQUEST', ...admin],
  },
  subscribe: { method: 'put', path: `${path}/subscriptions/{api}`, summary: 'Set an account’s plan and status for an API (all its keys share it); `comp: true` marks it granted without payment', body: SUBSCRIBE_BODY, data: ACCOUNT_SCHEMA, message: 'Subscription updated', errors: ['BAD_REQUEST', ...admin] },
  cancel: { method: 'delete', path: `${path}/subscriptions/{api}`, summary: 'Cancel an account’s subscription to an API', data: ACCOUNT_SCHEMA, message: 'Subscription cancelled', errors: ['BAD_REQUEST', ...admin] },
  suspend: { method: 'post', path: `${path}/suspend`, summary: 'Suspend an account: every call with any of its keys is refused with 403', data: ACCOUNT_SCHEMA, message: 'Account suspended', errors: ['BAD_REQUEST', ...admin] },
  reactivate: { method: 'post', path: `${path}/reactivate`, summary: 'Reactivate a suspended account', data: ACCOUNT_SCHEMA, message: 'Account reactivated', errors: ['BAD_REQUEST', ...admin] },
  createKey: { method: 'post', path: `${path}/keys`, summary: 'Create a key in an account (the secret is shown once)', body: CREATE_KEY_BODY, data: API_KEY_WITH_SECRET_SCHEMA, message: 'API key created', successStatus: 201, errors: ['BAD_REQUEST', ...admin] },
  listKeys: { method: 'get', path: `${path}/keys`, summary: 'List an account’s keys in creation order, a page at a time', query: LIST_KEYS_QUERY, data: pageSchema(API_KEY_SCHEMA), message: 'API keys listed', errors: ['BAD_REQUEST', ...admin] },
  rollKey: { method: 'post', path: '/admin/v1/keys/{id}/roll', summary: 'Give a key a new secret; the old one works for the grace period', description: 'A revoked key cannot be rolled (409).', body: ROLL_KEY_BODY, data: API_KEY_WITH_SECRET_SCHEMA, message: 'API key rolled', errors: ['BAD_REQUEST', 'CONFLICT', ...admin] },
  endGrace: { method: 'post', path: '/admin/v1/keys/{id}/end-grace', summary: 'End a rolled key’s grace now: the secret before the roll stops working, the current one keeps working', data: API_KEY_SCHEMA, message: 'Grace ended; only the current secret works', errors: [...admin] },
  revokeKey: { method: 'post', path: '/admin/v1/keys/{id}/revoke', summary: 'Revoke a key: every secret of it stops working at once (idempotent: the first revocation time is kept)', data: API_KEY_SCHEMA, message: 'API key revoked', errors: [...admin] },
  usage: { method: 'get', path: `${path}/usage`, summary: 'Usage this month (plans) and today (playground), shared by the account’s keys', data: ACCOUNT_USAGE_SCHEMA, message: 'Usage retrieved', errors: [...admin] },
  history: { method: 'get', path: `${path}/history`, summary: 'Calls per UTC day, API and outcome', description: 'By default the last 30 days ending today (UTC). `from` ≤ `to`, both within the 90 days kept before today.', query: HISTORY_QUERY, data: HISTORY_SCHEMA, message: 'History retrieved', errors: ['BAD_REQUEST', ...admin] },
  audit: {
    method: 'get',
    path: '/admin/v1/audit',
    summary: 'The audit log: every change made to accounts, by whom, when and from where, a page at a time',
    description: 'Newest first unless `order=oldest`; `account_id` keeps one account’s entries. Entries are kept 400 days and cannot be changed or removed. `GET /admin/v1/audit/export` (`?account_id=` too) answers the whole log as JSON lines (`application/x-ndjson`, not in the envelope), one entry as listed here a line, oldest first.',
    query: AUDIT_QUERY,
    data: pageSchema(AUDIT_ENTRY_SCHEMA),
    message: 'Audit log read',
    errors: ['BAD_REQUEST', ...admin],
  },
} satisfies Record<string, RouteDoc>;

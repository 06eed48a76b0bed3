import { AppError, createQueryParser } from '@tollgate/envelope/core';
import type { Subscription } from '../domain/admission';
import { accountOfKeyId, isAccountId } from '../domain/api-key';
import { normaliseEmail } from '../domain/email';
import { planProblem } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import type { UsageItem } from '../domain/usage-report';
import { EmailTakenError, KeyRevokedError } from '../data/account-store';
import type { Account, AccountStore, ApiKey, HistoryDay, Page } from '../data/account-store';
import { auditedAccountStore } from '../data/audited-account-store';
import type { AuditDeps, AuditSource } from '../data/audited-account-store';
import type { QuotaStore } from '../data/quota-store';
import { CREATE_ACCOUNT_BODY, CREATE_KEY_BODY, HISTORY_QUERY, LIST_ACCOUNTS_QUERY, LIST_KEYS_QUERY, ROLL_KEY_BODY, SUBSCRIBE_BODY } from './account-requests';
import { expiryMs, historyRange } from './dates';
import { apiPlansOf, createBodyParser } from './body';
import { readAccountUsage } from '../data/read-usage';
import { createAccountSearch } from './account-search';
import type { AccountMatch } from './account-search';

/** What the account actions need. */
export interface AccountActionsDeps extends AuditDeps {
  plans: PlanTable;
  accountStore: AccountStore;
  quotaStore: QuotaStore;
  clock: () => number;
}

/** A key just created or rolled: its record and the secret, shown this once. */
export type KeyWithSecret = ApiKey & { key: string };

/**
 * The operators' operations on accounts and their keys, each validating its raw input (a JSON body
 * or query object) and throwing {@link AppError}: the admin API, the console and the CLI run the
 * same checks, say the same things and record every change in the audit log as made by the
 * source the actions were built for. Unknown and malformed ids are both NOT_FOUND.
 */
export interface AccountActions {
  createAccount(body: unknown): Promise<Account>;
  getAccount(id: string): Promise<Account>;
  listAccounts(query: unknown): Promise<Page<Account>>;
  /** Accounts found by an email, an account or key id, or a key prefix (`tg_…`, also as shown: `tg_……last4`). */
  findAccounts(query: unknown): Promise<{ items: AccountMatch[] }>;
  subscribe(id: string, api: string, body: unknown): Promise<Account>;
  cancel(id: string, api: string): Promise<Account>;
  setStatus(id: string, status: Account['status']): Promise<Account>;
  createKey(id: string, body: unknown): Promise<KeyWithSecret>;
  listKeys(id: string, query: unknown): Promise<Page<ApiKey>>;
  rollKey(keyId: string, body: unknown): Promise<KeyWithSecret>;
  revokeKey(keyId: string): Promise<ApiKey>;
  endGrace(keyId: string): Promise<ApiKey>;
  usage(id: string): Promise<{ account_id: string; apis: UsageItem[] }>;
  history(id: string, query: unknown): Promise<{ account_id: string; from: string; to: string; days: HistoryDay[] }>;
}

function badRequest(parameter: string, message: string): AppError {
  return new AppError('BAD_REQUEST', message, { details: { parameter } });
}

const noAccount = (id: string): AppError => new AppError('NOT_FOUND', `no account with id ${id}`);
const noKey = (keyId: string): AppError => new AppError('NOT_FOUND', `no API key with id ${keyId}`);

// Malformed ids never reach the store: they could name no record, and Redis key names are built from them.
function checkAccountId(id: string): void {
  if (!isAccountId(id)) throw noAccount(id);
}

function checkKeyId(keyId: string): void {
  if (!accountOfKeyId(keyId)) throw noKey(keyId);
}

async function ofAccount<T>(id: string, read: () => Promise<T | undefined>): Promise<T> {
  checkAccountId(id);
  const value = await read();
  if (value === undefined) throw noAccount(id);
  return value;
}

async function ofKey<T>(keyId: string, read: () => Promise<T | undefined>): Promise<T> {
  checkKeyId(keyId);
  const value = await read();
  if (value === undefined) throw noKey(keyId);
  return value;
}

function emailOf(value: string): string {
  const email = normaliseEmail(value);
  if (email === null) throw badRequest('email', 'email must be an email address');
  return email;
}

/**
 * Builds the actions over one account store, once (the request schemas are compiled here); each
 * call of the result gives them for one source of changes, recorded as its actor in the audit log.
 */
export function createAccountActions(deps: AccountActionsDeps): (source: AuditSource) => AccountActions {
  const { plans } = deps;
  const parseCreate = createBodyParser<{ email?: string; name?: string; subscriptions?: Record<string, string> }>(CREATE_ACCOUNT_BODY);
  const parseList = createQueryParser<{ limit: number; cursor?: string; email?: string; order: 'oldest' | 'newest' }>(LIST_ACCOUNTS_QUERY);
  const parseSubscribe = createBodyParser<{ plan: string; status: Subscription['status']; comp?: boolean }>(SUBSCRIBE_BODY);
  const parseCreateKey = createBodyParser<{ name: string; expires_at?: string }>(CREATE_KEY_BODY);
  const parseListKeys = createQueryParser<{ limit: number; cursor?: string }>(LIST_KEYS_QUERY);
  const parseRoll = createBodyParser<{ grace_seconds: number }>(ROLL_KEY_BODY);
  const parseHistory = createQueryParser<{ from?: string; to?: string }>(HISTORY_QUERY);
  const search = createAccountSearch(deps.accountStore);

  return (source) => {
    const store = auditedAccountStore(deps.accountStore, deps, source);
    return {
      async createAccount(raw) {
        const body = parseCreate(raw);
        const email = body.email === undefined ? undefined : emailOf(body.email);
        const subscriptions: Record<string, Subscription> = {};
        for (const [api, plan] of Object.entries(body.subscriptions ?? {})) {
          const problem = planProblem(plans, api, plan, `subscriptions.${api}`);
          if (problem) throw badRequest(problem.unknown === 'api' ? 'subscriptions' : `subscriptions.${api}`, problem.message);
          subscriptions[api] = { plan, status: 'active' };
        }
        try {
          return await store.createAccount({ email, name: body.name, subscriptions });
        } catch (err) {
          if (!(err instanceof EmailTakenError)) throw err;
          throw new AppError('CONFLICT', `the email ${email} is already held by the account ${err.accountId}`, { details: { parameter: 'email', account_id: err.accountId } });
        }
      },
      getAccount: (id) => ofAccount(id, () => store.getAccount(id)),
      async listAccounts(raw) {
        const { limit, cursor, email, order } = parseList(raw);
        return store.listAccounts({ limit, cursor, email: email === undefined ? undefined : emailOf(email), newestFirst: order === 'newest' });
      },
      findAccounts: (raw) => search(raw),
      async subscribe(id, api, raw) {
        checkAccountId(id);
        apiPlansOf(plans, api);
        const body = parseSubscribe(raw);
        const problem = planProblem(plans, api, body.plan);
        if (problem) throw badRequest('plan', problem.message);
        return ofAccount(id, () => store.setSubscription(id, api, { plan: body.plan, status: body.status, ...(body.comp ? { comp: true as const } : {}) }));
      },
      async cancel(id, api) {
        const account = await ofAccount(id, () => store.getAccount(id));
        // An API since removed from the plans can still be cancelled, if the account holds it.
        if (!Object.hasOwn(account.subscriptions, api)) apiPlansOf(plans, api);
        return ofAccount(id, () => store.setSubscription(id, api, null));
      },
      setStatus: (id, status) => ofAccount(id, () => store.setStatus(id, status)),
      async createKey(id, raw) {
        checkAccountId(id);
        const body = parseCreateKey(raw);
        const expiresAtMs = body.expires_at === undefined ? undefined : expiryMs(body.expires_at, deps.clock());
        const { key, record } = await ofAccount(id, () => store.createKey(id, { name: body.name, expiresAtMs }));
        return { ...record, key };
      },
      async listKeys(id, raw) {
        checkAccountId(id);
        const { limit, cursor } = parseListKeys(raw);
        return ofAccount(id, () => store.listKeys(id, { limit, cursor }));
      },
      async rollKey(keyId, raw) {
        checkKeyId(keyId);
        const { grace_seconds: graceSeconds } = parseRoll(raw);
        try {
          const { key, record } = await ofKey(keyId, () => store.rollKey(keyId, graceSeconds * 1000));
          return { ...record, key };
        } catch (err) {
          if (!(err instanceof KeyRevokedError)) throw err;
          throw new AppError('CONFLICT', `the key ${keyId} is revoked and cannot be rolled; create a new key`, { details: { key_id: keyId } });
        }
      },
      revokeKey: (keyId) => ofKey(keyId, () => store.revokeKey(keyId)),
      endGrace: (keyId) => ofKey(keyId, () => store.endGrace(keyId)),
      async usage(id) {
        const account = await ofAccount(id, () => store.getAccount(id));
        return { account_id: id, apis: await readAccountUsage(account, plans, deps.quotaStore, deps.clock()) };
      },
      async history(id, raw) {
        checkAccountId(id);
        const { from, to } = historyRange(parseHistory(raw), deps.clock());
        const days = await ofAccount(id, () => store.history(id, Object.keys(plans), from, to));
        return { account_id: id, from, to, days };
      },
    };
  };
}

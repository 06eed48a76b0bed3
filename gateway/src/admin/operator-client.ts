import type { Subscription } from '../domain/admission';
import type { PlanTable } from '../domain/plans';
import type { AuditEntry } from '../data/audit-log';
import { auditedAccountStore } from '../data/audited-account-store';
import type { AuditDeps, AuditSource } from '../data/audited-account-store';
import { createLegacyKeyStore } from '../data/key-store';
import type { KeyStore } from '../data/key-store';
import type { QuotaStore } from '../data/quota-store';
import { readUsage } from '../data/read-usage';
import type { Stores } from '../data/stores';
import { createAccountActions } from '../http/account-actions';
import type { AccountActions } from '../http/account-actions';
import { createAuditActions } from '../http/audit-actions';
import type { AuditActions } from '../http/audit-actions';
import { createTeamActions } from '../http/team-actions';
import type { TeamActions } from '../http/team-actions';

/** What the CLI's commands act through: a store opened here, or a running gateway's admin API. */
export interface OperatorClient {
  /** `store` (acting on the store directly) or the gateway's URL. */
  describe: string;
  accounts: AccountActions;
  /** Keys as one-key accounts, as before accounts. */
  legacy: {
    /** Makes an account of one key, subscribed (active) to a plan per API named. */
    create(body: { owner: string; subscriptions: Record<string, string> }): Promise<unknown>;
    list(): Promise<unknown>;
    get(id: string): Promise<unknown>;
    subscribe(id: string, api: string, subscription: Subscription): Promise<unknown>;
    revoke(id: string): Promise<unknown>;
    usage(id: string): Promise<unknown>;
  };
  audit: {
    list(query: Record<string, string>): Promise<unknown>;
    /** Hands every entry, oldest first, to `write`; resolves with how many. */
    export(query: Record<string, string>, write: (entry: AuditEntry) => void): Promise<number>;
  };
  /** Teams' members (http/team-actions.ts): a member named by person id or address. */
  teams: TeamActions;
  /** Card payments (the billing room's admin routes): a refusal says when they are off. */
  billing: {
    reconcile(): Promise<unknown>;
    account(accountId: string): Promise<unknown>;
    summary(): Promise<unknown>;
  };
}

/** A new admin token, kept where the gateway keeps it (the old one stops working), and that place. */
export type RotateAdminToken = () => Promise<{ token: string; file: string }>;

/** What acting on the store directly is built from. */
export interface DirectClientDeps {
  accounts: AccountActions;
  keyStore: KeyStore;
  quotaStore: QuotaStore;
  plans: PlanTable;
  clock: () => number;
  audit: AuditActions;
  teams: TeamActions;
  billing: OperatorClient['billing'];
}

const found = <T>(value: T | undefined, id: string): T => {
  if (value === undefined) throw new Error(`no API key with id ${id}`);
  return value;
};

/** The client that acts on the store opened by the CLI itself, through the same actions as the admin API. */
export function directClient(deps: DirectClientDeps): OperatorClient {
  const { keyStore } = deps;
  return {
    describe: 'store',
    accounts: deps.accounts,
    legacy: {
      async create(body) {
        const subscriptions = Object.fromEntries(Object.entries(body.subscriptions).map(([api, plan]): [string, Subscription] => [api, { plan, status: 'active' }]));
        const { key, record } = await keyStore.create({ owner: body.owner, subscriptions });
        return { ...record, key };
      },
      list: () => keyStore.list(),
      get: async (id) => found(await keyStore.get(id), id),
      subscribe: async (id, api, subscription) => found(await keyStore.setSubscription(id, api, subscription), id),
      revoke: async (id) => found(await keyStore.revoke(id), id),
      usage: async (id) => readUsage(found(await keyStore.get(id), id), deps.plans, deps.quotaStore, deps.clock()),
    },
    audit: {
      list: (query) => deps.audit.list(query),
      export: (query, write) => deps.audit.export(query)(write),
    },
    teams: deps.teams,
    billing: deps.billing,
  };
}

const cardsOff = async (): Promise<never> => {
  throw new Error('card payments are off: set STRIPE_SECRET_KEY (and PUBLIC_URL, the portal’s origin) to use the billing commands');
};

/** The billing commands where card payments are off: each says so. */
export const BILLING_OFF = { sync: cardsOff, reconcile: cardsOff, account: cardsOff, summary: cardsOff };

/** What acting on a store opened by the CLI needs: the stores, who acts (for the audit log), and billing's commands. */
export interface StoreClientDeps extends Pick<AuditDeps, 'onAuditFailure'> {
  stores: Pick<Stores, 'accountStore' | 'quotaStore' | 'auditLog' | 'teamStore' | 'sessionStore'>;
  plans: PlanTable;
  /** TEAM_MAX_MEMBERS: operators are held to it as the admin API is. */
  maxMembers: number;
  clock: () => number;
  source: AuditSource;
  billing: OperatorClient['billing'];
}

/** The client on a store: the admin API's actions, each change audited as `source`'s. */
export function storeClient(deps: StoreClientDeps): OperatorClient {
  const { stores, plans, clock, source } = deps;
  const audit = { auditLog: stores.auditLog, onAuditFailure: deps.onAuditFailure };
  return directClient({
    accounts: createAccountActions({ plans, accountStore: stores.accountStore, quotaStore: stores.quotaStore, clock, ...audit })(source),
    keyStore: createLegacyKeyStore(auditedAccountStore(stores.accountStore, audit, source)),
    quotaStore: stores.quotaStore,
    plans,
    clock,
    audit: createAuditActions(stores.auditLog),
    teams: createTeamActions({ accountStore: stores.accountStore, teamStore: stores.teamStore, sessionStore: stores.sessionStore, maxMembers: deps.maxMembers, ...audit })(source),
    billing: deps.billing,
  });
}

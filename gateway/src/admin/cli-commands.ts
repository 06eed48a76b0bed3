import { parseArgs } from 'node:util';
import { isAppError } from '@tollgate/envelope';
import type { Subscription } from '../domain/admission';
import { planProblem } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import type { AccountStore } from '../data/account-store';
import type { KeyStore } from '../data/key-store';
import type { QuotaStore } from '../data/quota-store';
import { createAdminAccountActions } from './admin-account-actions';
import type { AdminAccountActions } from './admin-account-actions';
import { readUsage } from '../data/read-usage';

/** Usage text of the operator CLI. */
export const CLI_USAGE = `usage: pnpm --filter @tollgate/gateway cli <command>
accounts:
  account create [--email <e>] [--name <n>] [--subscribe <api>=<plan> ...]   create an account
  account get <id>                                        read an account
  account list [--email <e>] [--cursor <c>] [--limit <n>] list accounts, a page at a time
  account subscribe <id> <api> <plan> [--inactive]        set an account's plan for an API
  account cancel <id> <api>                               cancel an account's subscription
  account suspend <id> | account reactivate <id>          refuse (403) or allow again every key of it
  account usage <id>                                      usage this month (plans) and today (playground)
  account history <id> [--from <YYYY-MM-DD>] [--to <YYYY-MM-DD>]   calls per day (default: the last 30)
keys of an account:
  key create <accountId> --name <n> [--expires <ISO date-time>]   create a key (the secret is printed once)
  key list <accountId> [--cursor <c>] [--limit <n>]       list an account's keys
  key roll <keyId> [--grace-seconds <s>]                  a new secret; the old one works s more (default 86400)
  key revoke <keyId>                                      revoke a key
  key end-grace <keyId>                                   end a roll's grace now: only the new secret works
card payments (Stripe; STRIPE_SECRET_KEY and PUBLIC_URL):
  billing sync                                            make the products, prices and webhook endpoint the plan table needs (no Redis needed)
  billing reconcile                                       compare every Stripe subscription with the store and repair drift
  billing account <id>                                    an account's Stripe customers, paid subscriptions (status, period end) and comp plans
  billing summary                                         monthly recurring revenue per currency, paid subscriptions by status
keys as one-key accounts (as before accounts):
  create --owner <owner> [--subscribe <api>=<plan> ...]   create a key (the secret is printed once)
  list                                                    list every key
  subscribe <id> <api> <plan> [--inactive]                set a key's plan for an API
  revoke <id>                                             revoke a key
  usage <id>                                              usage this month (plans) and today (playground)
REDIS_URL must point at the gateway's Redis (but for billing sync).`;

/** A mistake in the command line; printed with the usage text, exit code 2. */
export class CliUsageError extends Error {}

/** What the CLI commands act on. */
export interface CliDeps {
  accountStore: AccountStore;
  keyStore: KeyStore;
  quotaStore: QuotaStore;
  plans: PlanTable;
  clock: () => number;
  /** The billing room's commands (billing/billing-cli.ts), passed in by cli.ts. */
  billing?: { sync(): Promise<unknown>; reconcile(): Promise<unknown>; account(id: string): Promise<unknown>; summary(): Promise<unknown> };
}

const OPTIONS = {
  owner: { type: 'string' },
  subscribe: { type: 'string', multiple: true },
  inactive: { type: 'boolean' },
  email: { type: 'string' },
  name: { type: 'string' },
  cursor: { type: 'string' },
  limit: { type: 'string' },
  expires: { type: 'string' },
  'grace-seconds': { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>['values'];

/** One command: its positional arguments (named, for the usage line), the options it takes, what it does. */
interface Command {
  args: string[];
  options?: (keyof typeof OPTIONS)[];
  /** False for a command that does not touch the store. */
  store?: false;
  run(args: string[], values: Values, deps: CliDeps, actions: AdminAccountActions): Promise<unknown>;
}

function checkPlan(plans: PlanTable, api: string, plan: string): void {
  const problem = planProblem(plans, api, plan);
  if (problem) throw new CliUsageError(problem.message);
}

/** `--subscribe api=plan` pairs as the subscriptions object the routes take. */
function subscriptionsOf(pairs: string[] = []): Record<string, string> {
  return Object.fromEntries(pairs.map((pair) => (pair.includes('=') ? [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] : [pair, ''])));
}

const found = <T>(value: T | undefined, id: string): T => {
  if (value === undefined) throw new Error(`no API key with id ${id}`);
  return value;
};

// Options left out are not sent: the schemas' defaults then apply, as over HTTP.
const given = (fields: Record<string, string | undefined>): Record<string, string> => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;

const subscription = (plan: string, values: Values): Subscription => ({ plan, status: values.inactive ? 'inactive' : 'active' });

const COMMANDS: Record<string, Command> = {
  create: {
    args: [],
    options: ['owner', 'subscribe'],
    async run(_args, values, deps) {
      if (!values.owner) throw new CliUsageError('create needs --owner <owner>');
      const subscriptions: Record<string, Subscription> = {};
      for (const [api, plan] of Object.entries(subscriptionsOf(values.subscribe))) {
        checkPlan(deps.plans, api, plan);
        subscriptions[api] = { plan, status: 'active' };
      }
      const { key, record } = await deps.keyStore.create({ owner: values.owner, subscriptions });
      return { ...record, key };
    },
  },
  list: { args: [], run: (_args, _values, deps) => deps.keyStore.list() },
  subscribe: {
    args: ['<id>', '<api>', '<plan>'],
    options: ['inactive'],
    async run([id = '', api = '', plan = ''], values, deps) {
      checkPlan(deps.plans, api, plan);
      return found(await deps.keyStore.setSubscription(id, api, subscription(plan, values)), id);
    },
  },
  revoke: { args: ['<id>'], run: async ([id = ''], _values, deps) => found(await deps.keyStore.revoke(id), id) },
  usage: { args: ['<id>'], run: async ([id = ''], _values, deps) => readUsage(found(await deps.keyStore.get(id), id), deps.plans, deps.quotaStore, deps.clock()) },

  'account create': {
    args: [],
    options: ['email', 'name', 'subscribe'],
    run: (_args, values, _deps, actions) => actions.createAccount({ ...given({ email: values.email, name: values.name }), subscriptions: subscriptionsOf(values.subscribe) }),
  },
  'account get': { args: ['<id>'], run: ([id = ''], _values, _deps, actions) => actions.getAccount(id) },
  'account list': {
    args: [],
    options: ['email', 'cursor', 'limit'],
    run: (_args, values, _deps, actions) => actions.listAccounts(given({ email: values.email, cursor: values.cursor, limit: values.limit })),
  },
  'account subscribe': {
    args: ['<id>', '<api>', '<plan>'],
    options: ['inactive'],
    run([id = '', api = '', plan = ''], values, deps, actions) {
      checkPlan(deps.plans, api, plan);
      return actions.subscribe(id, api, subscription(plan, values));
    },
  },
  'account cancel': { args: ['<id>', '<api>'], run: ([id = '', api = ''], _values, _deps, actions) => actions.cancel(id, api) },
  'account suspend': { args: ['<id>'], run: ([id = ''], _values, _deps, actions) => actions.setStatus(id, 'suspended') },
  'account reactivate': { args: ['<id>'], run: ([id = ''], _values, _deps, actions) => actions.setStatus(id, 'active') },
  'account usage': { args: ['<id>'], run: ([id = ''], _values, _deps, actions) => actions.usage(id) },
  'account history': {
    args: ['<id>'],
    options: ['from', 'to'],
    run: ([id = ''], values, _deps, actions) => actions.history(id, given({ from: values.from, to: values.to })),
  },
  'key create': {
    args: ['<accountId>'],
    options: ['name', 'expires'],
    run([id = ''], values, _deps, actions) {
      if (!values.name) throw new CliUsageError('key create needs --name <name>');
      return actions.createKey(id, given({ name: values.name, expires_at: values.expires }));
    },
  },
  'key list': {
    args: ['<accountId>'],
    options: ['cursor', 'limit'],
    run: ([id = ''], values, _deps, actions) => actions.listKeys(id, given({ cursor: values.cursor, limit: values.limit })),
  },
  'key roll': {
    args: ['<keyId>'],
    options: ['grace-seconds'],
    run: ([id = ''], values, _deps, actions) => actions.rollKey(id, given({ grace_seconds: values['grace-seconds'] })),
  },
  'key revoke': { args: ['<keyId>'], run: ([id = ''], _values, _deps, actions) => actions.revokeKey(id) },
  'key end-grace': { args: ['<keyId>'], run: ([id = ''], _values, _deps, actions) => actions.endGrace(id) },
  'billing sync': { args: [], store: false, run: (_args, _values, deps) => billingOf(deps).sync() },
  'billing reconcile': { args: [], run: (_args, _values, deps) => billingOf(deps).reconcile() },
  'billing account': { args: ['<id>'], run: ([id = ''], _values, deps) => billingOf(deps).account(id) },
  'billing summary': { args: [], run: (_args, _values, deps) => billingOf(deps).summary() },
};

function billingOf(deps: CliDeps): NonNullable<CliDeps['billing']> {
  if (!deps.billing) throw new Error('card payments are off: set STRIPE_SECRET_KEY (and PUBLIC_URL, the portal’s origin) to use the billing commands');
  return deps.billing;
}

/** The command an argument list names, and the arguments after its name. */
function commandOf(positionals: string[]): { name: string; args: string[]; command: Command | undefined } {
  const grouped = positionals[0] === 'account' || positionals[0] === 'key' || positionals[0] === 'billing';
  const name = positionals.slice(0, grouped ? 2 : 1).join(' ');
  return { name, args: positionals.slice(grouped ? 2 : 1), command: Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined };
}

/** Whether the command line names a command that works without the store (so no Redis is needed). */
export function storeFreeCommand(argv: string[]): boolean {
  const positionals = argv.filter((arg) => !arg.startsWith('-'));
  return commandOf(positionals).command?.store === false;
}

/** Runs one CLI command and returns what to print (JSON-serialisable). */
export async function runCliCommand(argv: string[], deps: CliDeps): Promise<unknown> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const { name, args, command } = commandOf(positionals);
  if (!command) throw new CliUsageError(name ? `unknown command '${name}'` : 'no command given');
  if (args.length !== command.args.length) throw new CliUsageError(`${name} takes ${command.args.join(' ') || 'no arguments'}`);
  const stray = Object.keys(values).find((option) => !command.options?.includes(option as keyof typeof OPTIONS));
  if (stray) throw new CliUsageError(`${name} does not take --${stray}`);
  try {
    return await command.run(args, values, deps, createAdminAccountActions(deps));
  } catch (err) {
    // The admin actions speak HTTP: a 400 is a mistake in the command line, anything else is not.
    if (isAppError(err)) throw err.code === 'BAD_REQUEST' ? new CliUsageError(err.message) : new Error(err.message);
    throw err;
  }
}

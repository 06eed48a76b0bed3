import { parseArgs } from 'node:util';
import { isAppError } from '@tollgate/envelope';
import type { Subscription } from '../domain/admission';
import { planProblem } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import type { AuditEntry } from '../data/audit-log';
import type { OperatorClient, RotateAdminToken } from './operator-client';

/** Usage text of the operator CLI. */
export const CLI_USAGE = `usage: tollgate <command>   (pnpm tollgate <command> from the repository root; node dist/cli.js <command> in the container)
accounts:
  account create [--email <e>] [--name <n>] [--subscribe <api>=<plan> ...]   create an account
  account get <id>                                        read an account
  account list [--email <e>] [--cursor <c>] [--limit <n>] [--newest]   list accounts, a page at a time
  account find <email | acc_… | key_… | key prefix>     find accounts (a key prefix as shown: tg_……last4 too)
  account subscribe <id> <api> <plan> [--inactive] [--comp]   set an account's plan for an API (--comp: granted without payment)
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
the catalogue (CATALOGUE_FILE, or the built-in one):
  catalogue check                                         read and validate the catalogue as the gateway would; its APIs and digest
  catalogue schema                                        the catalogue file's JSON Schema
  catalogue reload                                        a running gateway reads its catalogue again (needs TOLLGATE_URL; or send it SIGHUP)
audit log and admin token:
  audit list [--account <id>] [--cursor <c>] [--limit <n>] [--oldest]   changes made to accounts, newest first
  audit export [--account <id>]                           every entry as JSON lines, oldest first
  admin-token rotate                                      a new admin token in its file; the old one stops working
keys as one-key accounts (as before accounts):
  create --owner <owner> [--subscribe <api>=<plan> ...]   create a key (the secret is printed once)
  list                                                    list every key
  subscribe <id> <api> <plan> [--inactive]                set a key's plan for an API
  revoke <id>                                             revoke a key
  usage <id>                                              usage this month (plans) and today (playground)
With TOLLGATE_URL (e.g. http://127.0.0.1:8080) it acts through that gateway's admin API, sending
ADMIN_TOKEN or the token in its admin-token file; without it, on the store directly: REDIS_URL or
REDIS_CLUSTER_NODES as the gateway has them, or the SQLite file STORE_PATH while no gateway holds it.
billing sync, catalogue check and schema, and admin-token rotate need neither.`;

/** A mistake in the command line; printed with the usage text, exit code 2. */
export class CliUsageError extends Error {}

/** What the CLI commands act on. */
export interface CliDeps {
  /** Opens the store (or readies the gateway's admin API) for the commands that act on accounts. */
  connect: () => Promise<OperatorClient>;
  rotateAdminToken: RotateAdminToken;
  plans: PlanTable;
  /** Where `audit export` writes each entry (a JSON line); stdout in the CLI. */
  writeLine: (line: string) => void;
  /** `billing sync`: the provider's catalogue and webhook endpoint, made without any store (billing/billing-cli.ts). */
  billingSync: () => Promise<unknown>;
  /** `catalogue check`, `schema` and `reload` (cli.ts); unset: the commands say they are not available here. */
  catalogue?: CatalogueCommands;
}

/** The catalogue's commands: none opens the store. */
export interface CatalogueCommands {
  check(): Promise<unknown>;
  schema(): Promise<unknown>;
  reload(): Promise<unknown>;
}

const NO_CATALOGUE = (): Promise<never> => Promise.reject(new CliUsageError('the catalogue commands are not available here'));

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
  newest: { type: 'boolean' },
  comp: { type: 'boolean' },
  account: { type: 'string' },
  oldest: { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>['values'];

/**
 * One command: its positional arguments (named, for the usage line), the options it takes, what it
 * does with the accounts (through the store or a gateway), or, offline, without them.
 */
type Command = { args: string[]; options?: (keyof typeof OPTIONS)[] } & (
  | { run(args: string[], values: Values, deps: CliDeps, client: OperatorClient): Promise<unknown> }
  | { offline(deps: CliDeps): Promise<unknown> }
);

function checkPlan(plans: PlanTable, api: string, plan: string): void {
  const problem = planProblem(plans, api, plan);
  if (problem) throw new CliUsageError(problem.message);
}

/** `--subscribe api=plan` pairs as the subscriptions object the routes take. */
function subscriptionsOf(pairs: string[] = []): Record<string, string> {
  return Object.fromEntries(pairs.map((pair) => (pair.includes('=') ? [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] : [pair, ''])));
}

// Options left out are not sent: the schemas' defaults then apply, as over HTTP.
const given = (fields: Record<string, string | undefined>): Record<string, string> => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;

const subscription = (plan: string, values: Values): Subscription => ({ plan, status: values.inactive ? 'inactive' : 'active', ...(values.comp ? { comp: true as const } : {}) });

const COMMANDS: Record<string, Command> = {
  create: {
    args: [],
    options: ['owner', 'subscribe'],
    async run(_args, values, deps, client) {
      if (!values.owner) throw new CliUsageError('create needs --owner <owner>');
      const subscriptions = subscriptionsOf(values.subscribe);
      for (const [api, plan] of Object.entries(subscriptions)) checkPlan(deps.plans, api, plan);
      return client.legacy.create({ owner: values.owner, subscriptions });
    },
  },
  list: { args: [], run: (_args, _values, _deps, client) => client.legacy.list() },
  subscribe: {
    args: ['<id>', '<api>', '<plan>'],
    options: ['inactive'],
    run([id = '', api = '', plan = ''], values, deps, client) {
      checkPlan(deps.plans, api, plan);
      return client.legacy.subscribe(id, api, subscription(plan, values));
    },
  },
  revoke: { args: ['<id>'], run: ([id = ''], _values, _deps, client) => client.legacy.revoke(id) },
  usage: { args: ['<id>'], run: ([id = ''], _values, _deps, client) => client.legacy.usage(id) },

  'account create': {
    args: [],
    options: ['email', 'name', 'subscribe'],
    run: (_args, values, _deps, client) => client.accounts.createAccount({ ...given({ email: values.email, name: values.name }), subscriptions: subscriptionsOf(values.subscribe) }),
  },
  'account get': { args: ['<id>'], run: ([id = ''], _values, _deps, client) => client.accounts.getAccount(id) },
  'account list': {
    args: [],
    options: ['email', 'cursor', 'limit', 'newest'],
    run: (_args, values, _deps, client) => client.accounts.listAccounts(given({ email: values.email, cursor: values.cursor, limit: values.limit, order: values.newest ? 'newest' : undefined })),
  },
  'account find': { args: ['<query>'], run: ([q = ''], _values, _deps, client) => client.accounts.findAccounts({ q }) },
  'account subscribe': {
    args: ['<id>', '<api>', '<plan>'],
    options: ['inactive', 'comp'],
    run([id = '', api = '', plan = ''], values, deps, client) {
      checkPlan(deps.plans, api, plan);
      return client.accounts.subscribe(id, api, subscription(plan, values));
    },
  },
  'account cancel': { args: ['<id>', '<api>'], run: ([id = '', api = ''], _values, _deps, client) => client.accounts.cancel(id, api) },
  'account suspend': { args: ['<id>'], run: ([id = ''], _values, _deps, client) => client.accounts.setStatus(id, 'suspended') },
  'account reactivate': { args: ['<id>'], run: ([id = ''], _values, _deps, client) => client.accounts.setStatus(id, 'active') },
  'account usage': { args: ['<id>'], run: ([id = ''], _values, _deps, client) => client.accounts.usage(id) },
  'account history': {
    args: ['<id>'],
    options: ['from', 'to'],
    run: ([id = ''], values, _deps, client) => client.accounts.history(id, given({ from: values.from, to: values.to })),
  },
  'key create': {
    args: ['<accountId>'],
    options: ['name', 'expires'],
    run([id = ''], values, _deps, client) {
      if (!values.name) throw new CliUsageError('key create needs --name <name>');
      return client.accounts.createKey(id, given({ name: values.name, expires_at: values.expires }));
    },
  },
  'key list': {
    args: ['<accountId>'],
    options: ['cursor', 'limit'],
    run: ([id = ''], values, _deps, client) => client.accounts.listKeys(id, given({ cursor: values.cursor, limit: values.limit })),
  },
  'key roll': {
    args: ['<keyId>'],
    options: ['grace-seconds'],
    run: ([id = ''], values, _deps, client) => client.accounts.rollKey(id, given({ grace_seconds: values['grace-seconds'] })),
  },
  'key revoke': { args: ['<keyId>'], run: ([id = ''], _values, _deps, client) => client.accounts.revokeKey(id) },
  'key end-grace': { args: ['<keyId>'], run: ([id = ''], _values, _deps, client) => client.accounts.endGrace(id) },
  'audit list': {
    args: [],
    options: ['account', 'cursor', 'limit', 'oldest'],
    run: (_args, values, _deps, client) => client.audit.list(given({ account_id: values.account, cursor: values.cursor, limit: values.limit, order: values.oldest ? 'oldest' : undefined })),
  },
  'audit export': {
    args: [],
    options: ['account'],
    // JSON lines, not one JSON document: printed as they come, and nothing after.
    run: async (_args, values, deps, client) => {
      await client.audit.export(given({ account_id: values.account }), (entry: AuditEntry) => deps.writeLine(JSON.stringify(entry)));
      return undefined;
    },
  },
  // The token's file is all it changes: no store is opened.
  'admin-token rotate': { args: [], offline: (deps) => deps.rotateAdminToken() },
  // The provider's catalogue only: no store is opened.
  'billing sync': { args: [], offline: (deps) => deps.billingSync() },
  'catalogue check': { args: [], offline: (deps) => deps.catalogue?.check() ?? NO_CATALOGUE() },
  'catalogue schema': { args: [], offline: (deps) => deps.catalogue?.schema() ?? NO_CATALOGUE() },
  'catalogue reload': { args: [], offline: (deps) => deps.catalogue?.reload() ?? NO_CATALOGUE() },
  'billing reconcile': { args: [], run: (_args, _values, _deps, client) => client.billing.reconcile() },
  'billing account': { args: ['<id>'], run: ([id = ''], _values, _deps, client) => client.billing.account(id) },
  'billing summary': { args: [], run: (_args, _values, _deps, client) => client.billing.summary() },
};

/** Runs one CLI command and returns what to print (JSON-serialisable; undefined: nothing more). */
export async function runCliCommand(argv: string[], deps: CliDeps): Promise<unknown> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  const grouped = ['account', 'key', 'audit', 'admin-token', 'billing', 'catalogue'].includes(positionals[0] ?? '');
  const name = positionals.slice(0, grouped ? 2 : 1).join(' ');
  const args = positionals.slice(grouped ? 2 : 1);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) throw new CliUsageError(name ? `unknown command '${name}'` : 'no command given');
  if (args.length !== command.args.length) throw new CliUsageError(`${name} takes ${command.args.join(' ') || 'no arguments'}`);
  const stray = Object.keys(values).find((option) => !command.options?.includes(option as keyof typeof OPTIONS));
  if (stray) throw new CliUsageError(`${name} does not take --${stray}`);
  const running = 'offline' in command ? command.offline(deps) : deps.connect().then((client) => command.run(args, values, deps, client));
  return running.catch(asCliError);
}

// The actions speak HTTP (in the store or through a gateway alike): a 400 is a mistake in the
// command line, anything else is not.
function asCliError(err: unknown): never {
  if (isAppError(err)) throw err.code === 'BAD_REQUEST' ? new CliUsageError(err.message) : new Error(err.message);
  throw err;
}

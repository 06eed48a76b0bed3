import { parseArgs } from 'node:util';
import { isAppError } from '@tollgate/envelope/core';
import type { Subscription } from '../domain/admission';
import { planProblem } from '../domain/plans';
import type { PlanTable } from '../domain/plans';
import type { AuditEntry } from '../data/audit-log';
import { readable } from './cli-output';
import type { OperatorClient, RotateAdminToken } from './operator-client';

/** Usage text of the operator CLI. */
export const CLI_USAGE = `usage: tollgate <command>   (pnpm tollgate <command> from the repository root; node dist/cli.js <command> in the container)
accounts:
  account create [--email <e>] [--name <n>] [--subscribe <api>=<plan> ...]   create an account
  account get <id>                                        read an account
  account list [--email <e>] [--cursor <c>] [--limit <n>] [--newest]   list accounts, a page at a time
  account find <email | acc_… | key_… | key as shown | full secret>   an account and its keys (a key as shown: tg_…, tg_……last4)
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
teams (a member is a person id, per_…, or an address; every change is in the team's audit log):
  team members <accountId>                                a team's members and their roles
  team add <accountId> <email> --role <role>              add a person (made for an address that has none) as owner, admin, billing or developer
  team role <accountId> <member> <role>                   change a member's role (the last owner stays owner)
  team remove <accountId> <member>                        remove a member: their sessions end, the keys they made stay
  team transfer <accountId> <member>                      make a member the only owner; the other owners become admins
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
billing sync, catalogue check and schema, and admin-token rotate need neither.
options of every command:
  --json                                                  print the answer as JSON, for scripts (tables otherwise)
  -h, --help                                              this text, or one command's (tollgate key roll --help)`;

const GROUPS = ['account', 'key', 'team', 'audit', 'admin-token', 'billing', 'catalogue'];

/** The usage lines of one command, or of a group's commands (`account`), without the rest. */
function usageLines(name: string): string[] {
  const names = new RegExp(`(?:^  |\\| )${name.replace(/[-]/g, '\\$&')}(?: |$)`);
  return CLI_USAGE.split('\n').filter((line) => names.test(line)).map((line) => line.trim());
}

/** What `--help` prints: the whole usage, or one command's or group's lines with the options every command takes. */
function helpFor(name: string): string {
  const lines = name ? usageLines(name) : [];
  if (lines.length === 0) return CLI_USAGE;
  return [`usage: tollgate ${lines[0]}`, ...lines.slice(1).map((line) => `       tollgate ${line}`), CLI_USAGE.slice(CLI_USAGE.indexOf('options of every command:'))].join('\n');
}

/** The one line after a mistake's reason: the command's form, and where its help is. */
function usageHint(name: string): string {
  const line = usageLines(name).find((candidate) => candidate.startsWith(`${name} `) || candidate === name);
  const form = line?.split(/ {3,}/)[0];
  return form ? `usage: tollgate ${form}   (tollgate ${name} --help)` : 'usage: tollgate <command> [arguments] [--json]   (tollgate --help lists the commands)';
}

/** A mistake in the command line: its reason, then one usage line (exit code 2). */
export class CliUsageError extends Error {
  usage = usageHint('');
}

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
  role: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Options every command takes. */
const EVERY_COMMAND: readonly string[] = ['json', 'help'];

type Values = ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>>['values'];

/**
 * One command: its positional arguments (named, for the usage line), the options it takes, what it
 * does with the accounts (through the store or a gateway), or, offline, without them; `document`:
 * its answer is a file to keep (a JSON Schema), printed as JSON with or without `--json`.
 */
type Command = { args: string[]; options?: (keyof typeof OPTIONS)[]; document?: true } & (
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
  'team members': { args: ['<accountId>'], run: ([id = ''], _values, _deps, client) => client.teams.members(id) },
  'team add': {
    args: ['<accountId>', '<email>'],
    options: ['role'],
    run([id = '', email = ''], values, _deps, client) {
      if (!values.role) throw new CliUsageError('team add needs --role <owner|admin|billing|developer>');
      return client.teams.addMember(id, { email, role: values.role });
    },
  },
  'team role': { args: ['<accountId>', '<member>', '<role>'], run: ([id = '', member = '', role = ''], _values, _deps, client) => client.teams.setRole(id, member, { role }) },
  'team remove': { args: ['<accountId>', '<member>'], run: ([id = '', member = ''], _values, _deps, client) => client.teams.removeMember(id, member) },
  'team transfer': { args: ['<accountId>', '<member>'], run: ([id = '', member = ''], _values, _deps, client) => client.teams.transferOwnership(id, { person: member }) },
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
  'catalogue schema': { args: [], document: true, offline: (deps) => deps.catalogue?.schema() ?? NO_CATALOGUE() },
  'catalogue reload': { args: [], offline: (deps) => deps.catalogue?.reload() ?? NO_CATALOGUE() },
  'billing reconcile': { args: [], run: (_args, _values, _deps, client) => client.billing.reconcile() },
  'billing account': { args: ['<id>'], run: ([id = ''], _values, _deps, client) => client.billing.account(id) },
  'billing summary': { args: [], run: (_args, _values, _deps, client) => client.billing.summary() },
};

/** parseArgs's complaint in the CLI's words: its first sentence. */
function parseProblem(err: unknown): CliUsageError {
  const message = (err as Error).message.split(/\. /)[0]!.replace(/^Unknown option/, 'unknown option');
  return new CliUsageError(message, { cause: err });
}

function parse(argv: string[]): { values: Values; positionals: string[] } {
  try {
    return parseArgs({ args: argv, allowPositionals: true, options: OPTIONS });
  } catch (err) {
    throw parseProblem(err);
  }
}

/**
 * Runs one CLI command and returns what to print: a table (JSON with `--json`), the usage asked
 * for with `--help`, or undefined when the command printed its own lines.
 */
export async function runCliCommand(argv: string[], deps: CliDeps): Promise<string | undefined> {
  const { values, positionals } = parse(argv);
  const grouped = GROUPS.includes(positionals[0] ?? '');
  const name = positionals.slice(0, grouped ? 2 : 1).join(' ');
  if (values.help || positionals.length === 0 || name === 'help') return helpFor(name === 'help' ? '' : name);
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  const mistake = (message: string): CliUsageError => Object.assign(new CliUsageError(message), { usage: usageHint(command ? name : '') });
  if (!command) throw mistake(`unknown command '${name}'`);
  const args = positionals.slice(grouped ? 2 : 1);
  if (args.length !== command.args.length) throw mistake(`${name} takes ${command.args.join(' ') || 'no arguments'}`);
  const stray = Object.keys(values).find((option) => !EVERY_COMMAND.includes(option) && !command.options?.includes(option as keyof typeof OPTIONS));
  if (stray) throw mistake(`${name} does not take --${stray}`);
  const running = 'offline' in command ? command.offline(deps) : deps.connect().then((client) => command.run(args, values, deps, client));
  const result = await running.catch((err: unknown) => asCliError(err, name));
  if (result === undefined) return undefined;
  return values.json || command.document ? JSON.stringify(result, null, 2) : readable(result);
}

// The actions speak HTTP (in the store or through a gateway alike): a 400 is a mistake in the
// command line, anything else is not.
function asCliError(err: unknown, name: string): never {
  if (err instanceof CliUsageError) err.usage = usageHint(name);
  if (isAppError(err)) throw err.code === 'BAD_REQUEST' ? Object.assign(new CliUsageError(err.message), { usage: usageHint(name) }) : new Error(err.message);
  throw err;
}

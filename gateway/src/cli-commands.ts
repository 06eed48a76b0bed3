import { parseArgs } from 'node:util';
import { ownEntry } from '@tollgate/envelope';
import type { Subscription } from './domain/admission';
import type { PlanTable } from './domain/plans';
import type { KeyStore } from './data/key-store';
import type { QuotaStore } from './data/quota-store';
import { readUsage } from './routes/usage';

/** Usage text of the operator CLI. */
export const CLI_USAGE = `usage: pnpm --filter @tollgate/gateway cli <command>
  create --owner <owner> [--subscribe <api>=<plan> ...]   create a key (the secret is printed once)
  list                                                    list every key
  subscribe <id> <api> <plan> [--inactive]                set a key's plan for an API
  revoke <id>                                             revoke a key
  usage <id>                                              usage this month (plans) and today (playground)
REDIS_URL must point at the gateway's Redis.`;

/** A mistake in the command line; printed with the usage text, exit code 2. */
export class CliUsageError extends Error {}

/** What the CLI commands act on. */
export interface CliDeps {
  keyStore: KeyStore;
  quotaStore: QuotaStore;
  plans: PlanTable;
  clock: () => number;
}

function checkPlan(plans: PlanTable, api: string, plan: string): void {
  const apiPlans = ownEntry(plans, api);
  if (!apiPlans) throw new CliUsageError(`unknown API '${api}'; APIs: ${Object.keys(plans).join(', ')}`);
  if (!ownEntry(apiPlans.plans, plan)) throw new CliUsageError(`plan must be one of ${Object.keys(apiPlans.plans).join(', ')} for ${api}`);
}

/** Runs one CLI command and returns what to print (JSON-serialisable). */
export async function runCliCommand(argv: string[], deps: CliDeps): Promise<unknown> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { owner: { type: 'string' }, subscribe: { type: 'string', multiple: true }, inactive: { type: 'boolean' } },
  });
  const [command, ...args] = positionals;
  const need = (count: number, names: string): string[] => {
    if (args.length !== count) throw new CliUsageError(`${command} takes ${names}`);
    return args;
  };
  const found = <T>(value: T | undefined, id: string): T => {
    if (value === undefined) throw new Error(`no API key with id ${id}`);
    return value;
  };
  switch (command) {
    case 'create': {
      if (!values.owner) throw new CliUsageError('create needs --owner <owner>');
      const subscriptions: Record<string, Subscription> = {};
      for (const pair of values.subscribe ?? []) {
        const [api = '', plan = ''] = pair.split('=');
        checkPlan(deps.plans, api, plan);
        subscriptions[api] = { plan, status: 'active' };
      }
      const { key, record } = await deps.keyStore.create({ owner: values.owner, subscriptions });
      return { ...record, key };
    }
    case 'list':
      need(0, 'no arguments');
      return deps.keyStore.list();
    case 'subscribe': {
      const [id = '', api = '', plan = ''] = need(3, '<id> <api> <plan>');
      checkPlan(deps.plans, api, plan);
      return found(await deps.keyStore.setSubscription(id, api, { plan, status: values.inactive ? 'inactive' : 'active' }), id);
    }
    case 'revoke': {
      const [id = ''] = need(1, '<id>');
      return found(await deps.keyStore.revoke(id), id);
    }
    case 'usage': {
      const [id = ''] = need(1, '<id>');
      const record = found(await deps.keyStore.get(id), id);
      return readUsage(record, deps.plans, deps.quotaStore, deps.clock());
    }
    default:
      throw new CliUsageError(command ? `unknown command '${command}'` : 'no command given');
  }
}

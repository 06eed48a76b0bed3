import { createLogger } from '@tollgate/envelope';
import { CLI_USAGE, CliUsageError, runCliCommand, storeFreeCommand } from './admin/cli-commands';
import { createBillingCommands } from './billing/billing-cli';
import { createBilling } from './billing/create-billing';
import { loadConfig } from './config';
import { createLogMailer, createSmtpMailer } from './mail/mailer';
import { createMemoryStores } from './data/memory/memory-stores';
import type { Stores } from './data/stores';
import { createStoreClient, whenReady } from './data/redis/redis-client';
import { createRedisStores } from './data/redis/redis-stores';

/** The operator CLI's composition root: same config and Redis store as the gateway. */
async function main(): Promise<number> {
  const config = loadConfig(process.env);
  const argv = process.argv.slice(2);
  const logger = createLogger({ service: 'gateway-cli', level: 'error' });
  const clock = (): number => Date.now();
  const run = async (stores: Stores): Promise<number> => {
    // A reconciliation that finds a failed payment mails the person, as the gateway would have.
    const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger, config.mailFrom);
    try {
      const billing = createBilling({ config: config.billing, supportEmail: config.supportEmail, plans: config.plans, billingStore: stores.billingStore, accountStore: stores.accountStore, mailer, clock, logger });
      const { accountStore, keyStore, quotaStore } = stores;
      const result = await runCliCommand(argv, { accountStore, keyStore, quotaStore, plans: config.plans, clock, billing: billing.enabled ? createBillingCommands(billing) : undefined });
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    } finally {
      mailer.close();
    }
  };
  // A command that touches no store (billing sync) runs without Redis, the embedded store's gateway running or not.
  if (storeFreeCommand(argv)) return run(createMemoryStores({ clock }));
  if (!config.redisUrl && !config.redisClusterNodes) {
    process.stderr.write('gateway cli: REDIS_URL (or REDIS_CLUSTER_NODES) is not set; the CLI works on the shared Redis store (the in-memory store lives inside one gateway process)\n');
    return 1;
  }
  const redis = createStoreClient({ redisUrl: config.redisUrl, clusterNodes: config.redisClusterNodes }, { logger });
  try {
    if (!(await whenReady(redis, 5_000))) throw new Error(`Redis at ${config.redisUrl ? withoutPassword(config.redisUrl) : config.redisClusterNodes?.map((n) => `${n.host}:${n.port}`).join(',')} is not reachable`);
    return await run(createRedisStores(redis, { clock, timeoutMs: 5_000, logger, apis: Object.keys(config.plans) }));
  } finally {
    redis.disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof CliUsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`gateway cli: ${(err as Error).message}\n${usage ? `${CLI_USAGE}\n` : ''}`);
    process.exit(usage ? 2 : 1);
  },
);

/** A Redis URL fit for an error line: its password (the URL may carry one) replaced by `***`. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

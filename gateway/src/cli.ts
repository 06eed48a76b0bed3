import { existsSync } from 'node:fs';
import { hostname, userInfo } from 'node:os';
import { CliUsageError, runCliCommand } from './admin/cli-commands';
import type { OperatorClient, RotateAdminToken } from './admin/operator-client';
import type { BillingCommands } from './billing/billing-cli';
import { MEMORY_STORE_PATH, loadCliConfig } from './config';
import { CATALOGUE_SCHEMA } from './domain/catalogue-schema';
import type { CatalogueCommands } from './admin/cli-commands';
import type { GatewayConfig } from './config';
import { AdminTokenFixedError, fileAdminToken, openAdminToken } from './data/admin-token';
import type { AuditSource } from './data/audited-account-store';
import type { Mailer } from './mail/mailer';
import type { Stores } from './data/stores';

// What only some commands need (the stores' engines, billing, mail) is imported when one of them
// runs: `--help`, a mistake and every command through a gateway start without loading them.
/** The token the CLI sends to a gateway: ADMIN_TOKEN, or the one in the token file if there is one here. */
function tokenToSend(config: GatewayConfig): string {
  if (config.adminToken) return config.adminToken;
  if (config.adminTokenFile && existsSync(config.adminTokenFile)) {
    const token = fileAdminToken(config.adminTokenFile).current();
    if (token) return token;
  }
  throw new Error(`no admin token to send to TOLLGATE_URL: set ADMIN_TOKEN, or ADMIN_TOKEN_FILE to the gateway's admin-token file${config.adminTokenFile ? ` (not found at ${config.adminTokenFile})` : ''}`);
}

/** A Redis URL fit for an error line: its password (the URL may carry one) replaced by `***`. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** The stores the CLI acts on directly, and how to let go of them. */
async function openStores(config: GatewayConfig, clock: () => number): Promise<{ stores: Stores; close: () => void }> {
  const [{ createSecretBox }, { withSealedSecrets }] = await Promise.all([import('./data/secret-box.js'), import('./data/sealed-event-store.js')]);
  // What the CLI writes of an endpoint is sealed as the gateway seals it (it reseals nothing: the gateway does, at its start).
  const box = createSecretBox(config.secretsKeys);
  if (config.redisUrl || config.redisClusterNodes) {
    const [{ createLogger }, { createStoreClient, whenReady }, { createRedisStores }] = await Promise.all([import('@tollgate/envelope'), import('./data/redis/redis-client.js'), import('./data/redis/redis-stores.js')]);
    const logger = createLogger({ service: 'gateway-cli', level: 'error' });
    const redis = createStoreClient({ redisUrl: config.redisUrl, clusterNodes: config.redisClusterNodes }, { logger });
    if (!(await whenReady(redis, 5_000))) {
      redis.disconnect();
      const where = config.redisUrl ? `Redis at ${withoutPassword(config.redisUrl)}` : `the Redis Cluster at ${config.redisClusterNodes?.map((n) => `${n.host}:${n.port}`).join(',')}`;
      throw new Error(`${where} is not reachable: start it, set ${config.redisUrl ? 'REDIS_URL' : 'REDIS_CLUSTER_NODES'} to the gateway's, or TOLLGATE_URL to go through a running gateway`);
    }
    return { stores: withSealedSecrets(createRedisStores(redis, { clock, timeoutMs: 5_000, logger, apis: Object.keys(config.catalogue.apis) }), box), close: () => redis.disconnect() };
  }
  const through = `set TOLLGATE_URL=http://127.0.0.1:${config.port || 8080} to act through the running gateway's admin API`;
  if (config.storePath === MEMORY_STORE_PATH) throw new Error(`STORE_PATH=:memory: keeps nothing outside one gateway process: ${through}`);
  if (!existsSync(config.storePath)) throw new Error(`there is no store at ${config.storePath} (STORE_PATH): start the gateway once to make it, set STORE_PATH to the gateway's file, or ${through}`);
  const [{ StoreInUseError }, { openSqliteStores }] = await Promise.all([import('./data/sqlite/sqlite-file.js'), import('./data/sqlite/sqlite-stores.js')]);
  try {
    const opened = openSqliteStores({ path: config.storePath, clock });
    return { stores: withSealedSecrets(opened.stores, box), close: () => opened.close() };
  } catch (err) {
    // One process per file (locking_mode EXCLUSIVE): the gateway holding it is the way in.
    if (err instanceof StoreInUseError) throw new Error(`STORE_PATH ${config.storePath} is held by another process, such as a running gateway (one process per store file): ${through}`, { cause: err });
    throw err;
  }
}

/** The operator CLI's composition root: the gateway's configuration, and its store or its admin API. */
async function main(): Promise<number> {
  const { gateway: config, tollgateUrl } = loadCliConfig(process.env);
  const clock = (): number => Date.now();
  const mailers: Mailer[] = [];
  const onAuditFailure = (entry: unknown, err: Error): void => void process.stderr.write(`gateway cli: the audit log did not take this entry (${err.message}): ${JSON.stringify(entry)}\n`);
  // What reconciliation changes is billing's doing, run by hand here.
  const BILLING_BY_CLI: AuditSource = { actor: { type: 'system', id: 'billing', via: 'cli' }, from: hostname() };
  // A reconciliation that finds a failed payment mails the person, as the gateway would have.
  const billingFor = async (stores: Stores): Promise<BillingCommands> => {
    const [{ createLogger }, { createLogMailer, createSmtpMailer }, { createBilling }, { createBillingCommands }, { BILLING_OFF }, { auditedAccountStore }] = await Promise.all([
      import('@tollgate/envelope'),
      import('./mail/mailer.js'),
      import('./billing/create-billing.js'),
      import('./billing/billing-cli.js'),
      import('./admin/operator-client.js'),
      import('./data/audited-account-store.js'),
    ]);
    const logger = createLogger({ service: 'gateway-cli', level: 'error' });
    const mailer = config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(logger, config.mailFrom);
    mailers.push(mailer);
    const billing = createBilling({ config: config.billing, supportEmail: config.supportEmail, plans: config.catalogue.apis, billingStore: stores.billingStore, accountStore: auditedAccountStore(stores.accountStore, { auditLog: stores.auditLog, onAuditFailure }, BILLING_BY_CLI), teamStore: stores.teamStore, mailer, clock, logger });
    return billing.enabled ? createBillingCommands(billing) : BILLING_OFF;
  };
  // The provider's catalogue alone: an in-memory store stands in, whatever the gateway's is.
  const billingSync = async (): Promise<unknown> => {
    const { createMemoryStores } = await import('./data/memory/memory-stores.js');
    return (await billingFor(createMemoryStores({ clock }))).sync();
  };
  let close = (): void => undefined;
  let connect: () => Promise<OperatorClient>;
  let rotateAdminToken: RotateAdminToken;
  // Loading the configuration read and validated the catalogue already: a bad one ended the CLI with its line.
  const catalogue: CatalogueCommands = {
    check: async () => ({ source: config.catalogue.source, digest: config.catalogue.digest, apis: Object.values(config.catalogue.apis).map((api) => ({ api: api.name, upstream: api.upstream, listed: api.listed, plans: Object.keys(api.plans) })) }),
    schema: async () => CATALOGUE_SCHEMA,
    reload: () => Promise.reject(new CliUsageError('catalogue reload asks a running gateway: set TOLLGATE_URL to its address, or send its process SIGHUP')),
  };
  if (tollgateUrl) {
    const { httpClient } = await import('./admin/http-operator-client.js');
    const client = httpClient(tollgateUrl, tokenToSend(config));
    connect = async () => client;
    rotateAdminToken = client.rotateAdminToken;
    catalogue.reload = client.reloadCatalogue;
  } else {
    // Changes made on the store are the CLI's, from this host.
    const source: AuditSource = { actor: { type: 'operator', id: `cli:${userInfo().username}@${hostname()}`, via: 'cli' }, from: hostname() };
    rotateAdminToken = async () => {
      const adminToken = openAdminToken(config);
      if (adminToken.source !== 'file') throw new AdminTokenFixedError(adminToken.source);
      // The store first, for the audit log: a gateway holding its file is the way in (TOLLGATE_URL), and records it there.
      const opened = await openStores(config, clock);
      const { appendAudit } = await import('./data/audited-account-store.js');
      try {
        const rotated = { token: adminToken.rotate(), file: adminToken.file! };
        await appendAudit({ auditLog: opened.stores.auditLog, onAuditFailure }, { account_id: null, ...source, action: 'admin_token.rotate', target: null, details: {} });
        return rotated;
      } finally {
        opened.close();
      }
    };
    connect = async () => {
      const opened = await openStores(config, clock);
      close = opened.close;
      const { storeClient } = await import('./admin/operator-client.js');
      return storeClient({ stores: opened.stores, plans: config.catalogue.apis, maxMembers: config.teamMaxMembers, clock, source, onAuditFailure, billing: await billingFor(opened.stores) });
    };
  }
  try {
    const printed = await runCliCommand(process.argv.slice(2), { connect, rotateAdminToken, billingSync, catalogue, plans: config.catalogue.apis, writeLine: (line) => void process.stdout.write(`${line}\n`) });
    if (printed !== undefined) process.stdout.write(`${printed}\n`);
    return 0;
  } finally {
    close();
    for (const mailer of mailers) mailer.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof CliUsageError ? `${err.usage}\n` : '';
    process.stderr.write(`gateway cli: ${(err as Error).message}\n${usage}`);
    process.exit(usage ? 2 : 1);
  },
);

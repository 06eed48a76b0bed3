import { posix } from 'node:path';
import { parseEnv } from '../../packages/envelope/src/parse-env';
import type { QuerySchema } from '../../packages/envelope/src/validate-query';
import { secretSchema } from '../../packages/envelope/src/secret-schema';
import { DEPLOYABLES, DEPLOYABLE_NAMES } from './deployables';
import type { DeployableName } from './deployables';

/** What `npm start` takes from its environment and arguments. */
export interface StackConfig {
  ports: Record<DeployableName, number>;
  /** The operator's own admin token; a fresh one is generated when absent. */
  adminToken?: string;
  redisUrl?: string;
  /** Where the gateway keeps its embedded store without Redis, relative to the repository root. */
  storePath: string;
  /**
   * Where the gateway keeps its admin token when ADMIN_TOKEN is unset, relative to the repository
   * root: ADMIN_TOKEN_FILE, else `admin-token` beside the store file; unset for STORE_PATH=:memory:.
   */
  adminTokenFile?: string;
  demo: boolean;
  /** A line per request answered: on, except with `--demo` unless `--verbose` (or TOLLGATE_VERBOSE=1) asks for them. */
  requestLogs: boolean;
  /** Colour to a terminal (not with NO_COLOR set), or where FORCE_COLOR asks for it: never into a pipe or a file otherwise. */
  color: boolean;
}

const portSchema = (name: DeployableName) => ({
  type: 'integer',
  minimum: 1,
  maximum: 65535,
  default: DEPLOYABLES[name].port,
  description: `the port ${name} listens on`,
});

const schema: QuerySchema = {
  type: 'object',
  properties: {
    ...Object.fromEntries(DEPLOYABLE_NAMES.map((name) => [DEPLOYABLES[name].portVariable, portSchema(name)])),
    // The gateway refuses a weak token too, but only after four processes have started; saying it
    // here is one line and nothing to clean up.
    ADMIN_TOKEN: secretSchema(),
  },
};

/** Parses `npm start`'s environment the way the deployables parse theirs: one line naming the first bad variable. */
export function loadStackConfig(env: Record<string, string | undefined>, argv: readonly string[], terminal = false): StackConfig {
  const e = parseEnv<Record<string, string | number | undefined>>(schema, env);
  const demo = argv.includes('--demo') || env.TOLLGATE_DEMO === '1';
  const storePath = env.STORE_PATH || 'data/tollgate.db';
  // As the gateway finds it (config.ts); the stack reads it there once the gateway has made it.
  const adminTokenFile = env.ADMIN_TOKEN_FILE || (storePath === ':memory:' ? undefined : posix.join(posix.dirname(storePath.replace(/\\/g, '/')), 'admin-token'));
  return {
    ports: Object.fromEntries(DEPLOYABLE_NAMES.map((name) => [name, e[DEPLOYABLES[name].portVariable] as number])) as Record<DeployableName, number>,
    adminToken: e.ADMIN_TOKEN as string | undefined,
    // The gateway parses REDIS_URL itself; it is only passed on.
    redisUrl: env.REDIS_URL || undefined,
    // Likewise STORE_PATH; the default is the gateway's own (it runs in the repository root).
    storePath,
    ...(adminTokenFile ? { adminTokenFile } : {}),
    demo,
    requestLogs: !demo || argv.includes('--verbose') || env.TOLLGATE_VERBOSE === '1',
    color: (terminal && !env.NO_COLOR) || (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'),
  };
}

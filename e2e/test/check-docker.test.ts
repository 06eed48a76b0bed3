import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { bigMacCopyLabel } from '../../scripts/stack/demo-upstreams';

// The compose file's secrets and scripts/check-docker.mjs, through the real docker-compose.
jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
const COMPOSE = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
const run = promisify(execFile);
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-check-docker-'));
  // An empty env file, so a developer's .env cannot supply what the test leaves unset.
  writeFileSync(join(dir, 'empty.env'), '');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** This environment without the two secrets, plus `extra`. */
function envWithout(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  for (const name of ['ADMIN_TOKEN', 'PROXY_SECRET']) if (!(name in extra)) delete env[name];
  return env;
}

async function outcome(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd: ROOT, env });
    return { code: 0, output: stdout + stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : -1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const composeConfig = (env: NodeJS.ProcessEnv) => outcome('docker-compose', ['--env-file', join(dir, 'empty.env'), 'config', '-q'], env);
const checkDocker = (composeFile?: string) => outcome(process.execPath, [join(ROOT, 'scripts', 'check-docker.mjs'), ...(composeFile ? [composeFile] : [])], envWithout());

describe('docker-compose.yml secrets', () => {
  it('when ADMIN_TOKEN is unset, then compose refuses to start with how to make one, instead of a published default', async () => {
    const { code, output } = await composeConfig(envWithout({ PROXY_SECRET: 'test-proxy-secret-4f1c9e27b8d0' }));
    expect(code).not.toBe(0);
    expect(output).toContain('set ADMIN_TOKEN to a secret of at least 16 characters, e.g. openssl rand -hex 24');
  });

  it('when PROXY_SECRET is unset, then compose refuses to start with how to make one', async () => {
    const { code, output } = await composeConfig(envWithout({ ADMIN_TOKEN: 'test-admin-token-6a2d0f93c1e5' }));
    expect(code).not.toBe(0);
    expect(output).toContain('set PROXY_SECRET to a secret of at least 16 characters, e.g. openssl rand -hex 24');
  });

  it('when both are set, then compose passes them to the gateway and every service unchanged', async () => {
    const secrets = { ADMIN_TOKEN: 'test-admin-token-6a2d0f93c1e5', PROXY_SECRET: 'test-proxy-secret-4f1c9e27b8d0' };
    const { stdout } = await run('docker-compose', ['--env-file', join(dir, 'empty.env'), 'config'], { cwd: ROOT, env: envWithout(secrets) });
    // The three gateways (on Redis, the sqlite profile's, the demo's) and the demo's stand-ins, which make the demo key.
    expect(stdout.split(`ADMIN_TOKEN: ${secrets.ADMIN_TOKEN}`)).toHaveLength(5);
    // The three gateways, the three services and the demo profile's three.
    expect(stdout.split(`PROXY_SECRET: ${secrets.PROXY_SECRET}`)).toHaveLength(10);
    expect(stdout).not.toMatch(/change-?me/i);
  });
});

describe('scripts/check-docker.mjs', () => {
  it("when run on the repository's compose file without either secret in the environment, then it passes and says both are required", async () => {
    const { code, output } = await checkDocker();
    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('ADMIN_TOKEN and PROXY_SECRET required') });
  });

  it.each([
    ['ADMIN_TOKEN has a default', (text: string) => text.replace(/\$\{ADMIN_TOKEN:\?[^}]*\}/, '$${ADMIN_TOKEN:-change-me-admin-token}'), 'compose ADMIN_TOKEN: ${ADMIN_TOKEN:-change-me-admin-token} lets compose start without it'],
    ['PROXY_SECRET has an unset-only default', (text: string) => text.replace(/\$\{PROXY_SECRET:\?[^}]*\}/, '$${PROXY_SECRET-proxy-secret-0123456789}'), 'compose PROXY_SECRET: ${PROXY_SECRET-proxy-secret-0123456789} lets compose start without it'],
    ['a service has a literal PROXY_SECRET', (text: string) => text.replace(/(\n {2}logs:[\s\S]*?)PROXY_SECRET: \*proxy-secret/, '$1PROXY_SECRET: literal-proxy-secret-0123456789'), 'compose logs: does not take PROXY_SECRET from the environment'],
  ])('when %s, then it names it and exits 1', async (_case, edit, finding) => {
    const edited = edit(COMPOSE);
    expect(edited).not.toBe(COMPOSE);
    const file = join(dir, `docker-compose.${Math.random().toString(36).slice(2)}.yml`);
    writeFileSync(file, edited);
    const { code, output } = await checkDocker(file);
    expect(code).toBe(1);
    expect(output).toContain(finding);
  });
});

/** One service's block of `docker-compose config`, as printed (two-space names, four-space fields). */
function serviceBlock(config: string, name: string): string {
  const start = config.indexOf(`\n  ${name}:\n`);
  if (start === -1) throw new Error(`no service ${name} in the compose config`);
  const rest = config.slice(start + name.length + 5);
  const end = rest.search(/\n {2}[a-z][\w-]*:\n|\n[a-z]/);
  return end === -1 ? rest : rest.slice(0, end);
}

describe('the compose profiles', () => {
  const secrets = { ADMIN_TOKEN: 'test-admin-token-6a2d0f93c1e5', PROXY_SECRET: 'test-proxy-secret-4f1c9e27b8d0' };

  it('when the sqlite profile is asked for, then its gateway keeps the embedded store on a volume, with no Redis anywhere in its set-up, and the default gateway keeps Redis', async () => {
    const { stdout } = await run('docker-compose', ['--env-file', join(dir, 'empty.env'), '--profile', 'sqlite', 'config'], { cwd: ROOT, env: envWithout(secrets) });
    const sqlite = serviceBlock(stdout, 'gateway-sqlite');
    expect(sqlite).toContain('STORE_PATH: /app/data/tollgate.db');
    expect(sqlite).toMatch(/volumes:\n\s+- gateway-data:\/app\/data/);
    expect(sqlite).toMatch(/profiles:\n\s+- sqlite/);
    expect(sqlite).not.toMatch(/redis/i);
    expect(sqlite).toContain(`ADMIN_TOKEN: ${secrets.ADMIN_TOKEN}`);
    const redis = serviceBlock(stdout, 'gateway');
    expect(redis).toContain('REDIS_URL: redis://redis:6379');
    expect(redis).toMatch(/depends_on:\n(\s+\w+:\n\s+condition: service_healthy\n)*\s+redis:/);
    expect(redis).not.toContain('profiles:');
    expect(serviceBlock(stdout, 'redis')).not.toContain('profiles:');
    expect(stdout).toMatch(/\nvolumes:\n(\s+.*\n)*\s+gateway-data: \{\}/);
  });

  it('when the demo profile is asked for, then every upstream and Stripe are the demo container, and burger labels the copy as npm start -- --demo does', async () => {
    const { stdout } = await run('docker-compose', ['--env-file', join(dir, 'empty.env'), '--profile', 'demo', 'config'], { cwd: ROOT, env: envWithout(secrets) });
    expect(serviceBlock(stdout, 'burger-demo')).toContain('BURGER_DATA_URL: http://demo:8090/big-mac-full-index.csv');
    // Read in the file itself: `config` folds a long value over lines.
    expect(COMPOSE).toContain(`BURGER_SOURCE_LABEL: "${bigMacCopyLabel(ROOT)}"`);
    expect(serviceBlock(stdout, 'token-demo')).toContain('TOKEN_UPSTREAM_URL: http://demo:8091');
    expect(serviceBlock(stdout, 'logs-demo')).toContain('LOGS_RPC_ETHEREUM: http://demo:8545');
    const gateway = serviceBlock(stdout, 'gateway-demo');
    for (const line of ['BURGER_URL: http://burger-demo:8081', 'STRIPE_API_BASE: http://demo:12111', 'WEBHOOKS_ALLOW_PRIVATE: "true"', 'STORE_PATH: /app/data/tollgate.db']) expect(gateway).toContain(line);
    expect(gateway).not.toMatch(/redis/i);
    const demo = serviceBlock(stdout, 'demo');
    expect(demo).toMatch(/volumes:\n\s+- demo-data:\/data/);
    expect(demo.match(/STRIPE_LOCAL_WEBHOOK_SECRET: (\S+)/)?.[1]).toBe(gateway.match(/STRIPE_WEBHOOK_SECRET: (\S+)/)?.[1]);
    // Nothing in the demo's set-up names a host of the internet.
    for (const name of ['demo', 'gateway-demo', 'burger-demo', 'token-demo', 'logs-demo']) expect({ name, url: /https?:\/\/(?!(demo|burger-demo|token-demo|logs-demo|gateway-demo|localhost|127\.0\.0\.1)[:/])\S+/.exec(serviceBlock(stdout, name))?.[0] }).toEqual({ name, url: undefined });
  });

  it('when the Dockerfile of the gateway is read, then its build stage builds the native SQLite module and its runtime stage keeps the store on a volume', () => {
    const dockerfile = readFileSync(join(ROOT, 'gateway', 'Dockerfile'), 'utf8');
    const [build = '', runtime = ''] = dockerfile.split(/\nFROM [^\n]+ AS runtime\n/);
    expect(build).toMatch(/apt-get install -y --no-install-recommends python3 make g\+\+/);
    expect(build).toMatch(/WORKDIR \/out\/node_modules\/better-sqlite3\nRUN npm run install/);
    expect(build).toContain("node -e \"new (require('./lib'))(':memory:').close()\"");
    expect(runtime).not.toMatch(/apt-get|g\+\+|python3/);
    expect(runtime).toContain('ENV STORE_PATH=/app/data/tollgate.db');
    expect(runtime).toContain('VOLUME ["/app/data"]');
    for (const folder of ['portal', 'console', 'web']) expect(runtime).toContain(`COPY --from=build --chown=node:node /out/${folder} ./${folder}`);
  });
});

import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { BILLING_OFF, storeClient } from '../../src/admin/operator-client';
import { httpClient } from '../../src/admin/http-operator-client';
import { CliUsageError, runCliCommand } from '../../src/admin/cli-commands';
import type { OperatorClient } from '../../src/admin/operator-client';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { ADMIN_TOKEN, buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';

jest.setTimeout(60_000);

let upstream: EchoUpstream;
beforeAll(async () => {
  upstream = await startEchoUpstream();
});
afterAll(() => upstream.close());

const unused = async (): Promise<never> => {
  throw new Error('not used');
};

describe.each(['store', 'gateway'] as const)('the team commands of the operator CLI, acting on the %s', (way) => {
  let gw: GatewayFixture;
  let server: Server;
  let client: OperatorClient;
  beforeEach(async () => {
    gw = await buildGateway({ upstream: upstream.url, env: { TEAM_MAX_MEMBERS: '2' } });
    server = createServer(gw.app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    client =
      way === 'store'
        ? storeClient({ stores: gw.stores, plans: gw.config.catalogue.apis, maxMembers: gw.config.teamMaxMembers, clock: gw.clock.now, source: { actor: { type: 'operator', id: 'cli:test', via: 'cli' }, from: null }, onAuditFailure: (_entry, err) => { throw err; }, billing: BILLING_OFF })
        : httpClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, ADMIN_TOKEN);
  });
  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
    await gw.close();
  });
  const cli = (...argv: string[]) => runCliCommand(argv, { connect: async () => client, rotateAdminToken: unused, billingSync: unused, plans: gw.config.catalogue.apis, writeLine: () => undefined });

  it('when an operator adds, lists, changes, transfers and removes members, then tables show them, --json answers the records, and refusals say why', async () => {
    const account = JSON.parse((await cli('account', 'create', '--email', 'lead@cli.example', '--json'))!) as { id: string };
    expect(JSON.parse((await cli('team', 'add', account.id, 'lead@cli.example', '--role', 'owner', '--json'))!)).toMatchObject({ email: 'lead@cli.example', role: 'owner' });
    await cli('team', 'add', account.id, 'dev@cli.example', '--role', 'developer');
    const table = (await cli('team', 'members', account.id))!;
    expect(table).toMatch(/^team_id\s+acc_[0-9a-f]{24}$/m);
    expect(table).toMatch(/^PERSON_ID\s+EMAIL\s+NAME\s+ROLE\s+JOINED_AT\s+INVITED_BY$/m);
    expect(table).toMatch(/^per_[0-9a-f]{24}\s+dev@cli\.example\s+dev@cli\.example\s+developer\s/m);

    await expect(cli('team', 'add', account.id, 'third@cli.example', '--role', 'developer')).rejects.toThrow('the team already has its most members (2)');
    await expect(cli('team', 'remove', account.id, 'lead@cli.example')).rejects.toThrow('the team would have no owner left');
    expect(JSON.parse((await cli('team', 'role', account.id, 'dev@cli.example', 'billing', '--json'))!).role).toBe('billing');
    const after = JSON.parse((await cli('team', 'transfer', account.id, 'dev@cli.example', '--json'))!) as { members: { email: string; role: string }[] };
    expect(after.members.map((m) => [m.email, m.role]).sort()).toEqual([['dev@cli.example', 'owner'], ['lead@cli.example', 'admin']]);
    expect(JSON.parse((await cli('team', 'remove', account.id, 'lead@cli.example', '--json'))!).role).toBe('admin');
    expect(JSON.parse((await cli('team', 'members', account.id, '--json'))!).members.map((m: { email: string }) => m.email)).toEqual(['dev@cli.example']);
    const audit = await gw.stores.auditLog.list({ accountId: account.id, limit: 20, oldestFirst: true });
    expect(audit.items.filter((e) => e.action.startsWith('team.')).map((e) => [e.action, e.actor.type])).toEqual([
      ['team.member_add', 'operator'],
      ['team.member_add', 'operator'],
      ['team.role_change', 'operator'],
      ['team.owner_transfer', 'operator'],
      ['team.member_remove', 'operator'],
    ]);
  });

  it('when a team command is mistyped, then it is a usage error naming the command’s form (exit 2), and --help shows the team commands', async () => {
    const missing = await cli('team', 'add', 'acc_000000000000000000000000', 'x@cli.example').catch((err: unknown) => err);
    expect(missing).toBeInstanceOf(CliUsageError);
    expect((missing as CliUsageError).message).toBe('team add needs --role <owner|admin|billing|developer>');
    expect((missing as CliUsageError).usage).toBe('usage: tollgate team add <accountId> <email> --role <role>   (tollgate team add --help)');
    const badRole = await cli('team', 'role', 'acc_000000000000000000000000', 'x@cli.example', 'god').catch((err: unknown) => err);
    expect(badRole).toBeInstanceOf(CliUsageError);
    expect(await cli('team', 'members', 'acc_000000000000000000000000').catch((err: unknown) => (err as Error).message)).toBe('no account with id acc_000000000000000000000000');
    const help = (await cli('team', '--help'))!;
    expect(help.split('\n').filter((line) => line.includes('tollgate team'))).toHaveLength(5);
  });
});

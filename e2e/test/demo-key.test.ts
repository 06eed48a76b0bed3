import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEMO_EMAIL, ensureDemoKey } from '../../scripts/stack/demo-key';
import { startGatewayProcess } from '../../gateway/test/support/gateway-process';
import type { GatewayProcess } from '../../gateway/test/support/gateway-process';

jest.setTimeout(60_000);

const ADMIN_TOKEN = 'demo-key-test-admin-token-0123456789';

describe('the --demo account and key', () => {
  let dir: string;
  let gateway: GatewayProcess | undefined;
  const start = async (store: string): Promise<GatewayProcess> => {
    gateway = await startGatewayProcess({ STORE_PATH: path.join(dir, store), ADMIN_TOKEN });
    return gateway;
  };
  const accountsOf = async (gw: GatewayProcess): Promise<{ id: string; email: string | null }[]> => {
    const res = await fetch(`${gw.url}/admin/v1/accounts?limit=100`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    return ((await res.json()) as { data: { items: { id: string; email: string | null }[] } }).data.items;
  };
  const works = async (gw: GatewayProcess, key: string): Promise<number> => (await fetch(`${gw.url}/dashboard/v1/account`, { headers: { 'x-tollgate-key': key } })).status;

  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'tollgate-demo-key-'));
  });
  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('when --demo starts three times on one store, then one demo account with an address and one key are made, and the same key is printed each time', async () => {
    const file = path.join(dir, 'demo-key');
    let gw = await start('tollgate.db');
    const first = await ensureDemoKey(gw.url, ADMIN_TOKEN, file);
    expect(await ensureDemoKey(gw.url, ADMIN_TOKEN, file)).toBe(first);
    await gw.stop();
    gw = await start('tollgate.db');
    expect(await ensureDemoKey(gw.url, ADMIN_TOKEN, file)).toBe(first);
    expect(await works(gw, first)).toBe(200);
    expect((await accountsOf(gw)).map((a) => a.email)).toEqual([DEMO_EMAIL]);
    const [account] = await accountsOf(gw);
    const keys = await fetch(`${gw.url}/admin/v1/accounts/${account!.id}/keys`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(((await keys.json()) as { data: { items: unknown[] } }).data.items).toHaveLength(1);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('when the store no longer has the kept key (a new store, or the key revoked), then a working key is made in the one demo account', async () => {
    const file = path.join(dir, 'demo-key');
    let gw = await start('first.db');
    const first = await ensureDemoKey(gw.url, ADMIN_TOKEN, file);
    await gw.stop();
    gw = await start('second.db');
    const second = await ensureDemoKey(gw.url, ADMIN_TOKEN, file);
    expect(second).not.toBe(first);
    expect(await works(gw, second)).toBe(200);
    const [account] = await accountsOf(gw);
    const listed = (await (await fetch(`${gw.url}/admin/v1/accounts/${account!.id}/keys`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })).json()) as { data: { items: { id: string }[] } };
    await fetch(`${gw.url}/admin/v1/keys/${listed.data.items[0]!.id}/revoke`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    const third = await ensureDemoKey(gw.url, ADMIN_TOKEN, file);
    expect(third).not.toBe(second);
    expect(await works(gw, third)).toBe(200);
    expect((await accountsOf(gw)).map((a) => a.email)).toEqual([DEMO_EMAIL]);
  });
});

import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** The demo account's address: one account, made on the first `--demo` start and found again after. */
export const DEMO_EMAIL = 'demo@tollgate.local';

/**
 * The demo account's plan of each API the gateway's catalogue has (GET /dashboard/v1/plans): the
 * one named pro where there is one (the built-in APIs'), else the API's last plan offered.
 */
async function demoPlans(gatewayUrl: string): Promise<Record<string, string>> {
  const res = await fetch(`${gatewayUrl}/dashboard/v1/plans`);
  if (res.status !== 200) throw new Error(`could not read the gateway's catalogue: ${res.status}`);
  const { data = [] } = (await res.json()) as Envelope<{ api: string; plans: { name: string; offered: boolean }[] }[]>;
  const plans: Record<string, string> = {};
  for (const { api, plans: offered } of data) {
    const names = offered.filter((p) => p.offered).map((p) => p.name);
    const plan = names.includes('pro') ? 'pro' : names.at(-1);
    if (plan) plans[api] = plan;
  }
  return plans;
}

interface Envelope<T> {
  data?: T;
  message?: string;
}

/**
 * The demo key: the one kept in `file` while it still opens the demo account in the store; else a
 * new key in the demo account (made once, found by its address after), written to `file` (0600).
 * Either way the account is on the pro plan (or the last one) of every API of the catalogue. Several starts on one store make
 * one account; a store that was wiped gets its account and key again.
 */
export async function ensureDemoKey(gatewayUrl: string, adminToken: string, file: string): Promise<string> {
  const admin = async <T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: Envelope<T> }> => {
    const res = await fetch(`${gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Envelope<T> };
  };
  const fail = (what: string, res: { status: number; body: Envelope<unknown> }): never => {
    throw new Error(`could not ${what}: ${res.status} ${res.body.message ?? ''}`);
  };

  const plans = await demoPlans(gatewayUrl);
  const found = await admin<{ items: { id: string }[] }>('GET', `/admin/v1/accounts?email=${encodeURIComponent(DEMO_EMAIL)}`);
  if (found.status !== 200) fail('look for the demo account', found);
  let accountId = found.body.data?.items[0]?.id;
  if (!accountId) {
    const made = await admin<{ id: string }>('POST', '/admin/v1/accounts', { email: DEMO_EMAIL, name: 'Demo', subscriptions: plans });
    if (made.status !== 201 || !made.body.data) fail('create the demo account', made);
    accountId = made.body.data!.id;
  } else {
    for (const [api, plan] of Object.entries(plans)) {
      const set = await admin('PUT', `/admin/v1/accounts/${accountId}/subscriptions/${api}`, { plan });
      if (set.status !== 200) fail(`put the demo account on ${api} ${plan}`, set);
    }
  }

  const kept = existsSync(file) ? readFileSync(file, 'utf8').trim() : '';
  if (kept && (await opensAccount(gatewayUrl, kept, accountId))) return kept;
  const key = await admin<{ key: string }>('POST', `/admin/v1/accounts/${accountId}/keys`, { name: 'demo' });
  if (key.status !== 201 || !key.body.data?.key) fail('create the demo key', key);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${key.body.data!.key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key.body.data!.key;
}

/** Whether a key is live and belongs to the account (asked of the dashboard, as its holder would). */
async function opensAccount(gatewayUrl: string, key: string, accountId: string): Promise<boolean> {
  const res = await fetch(`${gatewayUrl}/dashboard/v1/account`, { headers: { 'x-tollgate-key': key } });
  if (res.status !== 200) return false;
  const body = (await res.json()) as Envelope<{ account?: { id: string } }>;
  return body.data?.account?.id === accountId;
}

/** Creates a key subscribed to all three APIs through the admin API and returns it. */
export async function createDemoKey(gatewayUrl: string, adminToken: string): Promise<string> {
  const res = await fetch(`${gatewayUrl}/admin/v1/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ owner: 'demo@tollgate.local', subscriptions: { burger: 'pro', token: 'pro', logs: 'pro' } }),
  });
  const body = (await res.json()) as { data?: { key?: string }; message?: string };
  if (res.status !== 201 || !body.data?.key) throw new Error(`could not create the demo key: ${res.status} ${body.message ?? ''}`);
  return body.data.key;
}

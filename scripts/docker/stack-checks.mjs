/* global fetch, AbortSignal */
// The running stack, checked through the gateway's published port: every container healthy,
// /readyz, a key made through the admin API and calls answered with it.
import { setTimeout as sleep } from 'node:timers/promises';
import { output } from './engine.mjs';

/** Resolves once every container of the project is healthy (or running, without a healthcheck); throws naming the ones that are not. */
export async function healthy(compose, profileArgs, timeoutMs, log) {
  const deadline = Date.now() + timeoutMs;
  let states = [];
  while (Date.now() < deadline) {
    const ids = compose.output([...profileArgs, 'ps', '-q']).split('\n').filter(Boolean);
    states = ids.map((id) => output('docker', ['inspect', '-f', '{{.Name}} {{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{else}}healthy{{end}}', id]).trim());
    if (states.length > 0 && states.every((s) => s.endsWith(' running healthy'))) {
      log(`healthy: ${states.map((s) => s.split(' ')[0].replace(/^\//, '')).join(', ')}`);
      return;
    }
    if (states.some((s) => / (exited|dead) /.test(s))) break;
    await sleep(2_000);
  }
  throw new Error(`not every container became healthy within ${timeoutMs / 1000} s: ${states.join('; ')}`);
}

/** A JSON call to the gateway; answers its status and envelope. */
export async function call(base, path, { key, bearer, method = 'GET', body } = {}) {
  const headers = { ...(key ? { 'x-tollgate-key': key } : {}), ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) };
  const res = await fetch(`${base}${path}`, { method, headers, body: body ? JSON.stringify(body) : undefined, signal: AbortSignal.timeout(30_000) });
  const text = await res.text();
  let parsed;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = { message: text.slice(0, 200) };
  }
  return { status: res.status, body: parsed };
}

/** Throws with what was answered unless `ok` holds. */
export function expectThat(what, answer, ok) {
  if (!ok(answer)) throw new Error(`${what}: answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 400)}`);
}

/** /readyz through the published port, and a key made through the admin API that gets answers through the gateway. */
export async function checkThroughGateway(base, adminToken, subscriptions, calls, log) {
  const ready = await call(base, '/readyz');
  expectThat(`GET ${base}/readyz`, ready, (a) => a.status === 200);
  log(`/readyz through the published port: ${ready.status} ${ready.body.data?.status ?? ''}`.trim());
  const made = await call(base, '/admin/v1/keys', { method: 'POST', bearer: adminToken, body: { owner: 'docker-check', subscriptions } });
  expectThat('POST /admin/v1/keys', made, (a) => a.status === 201 && typeof a.body.data?.key === 'string');
  for (const [path, ok] of calls) {
    const answer = await call(base, path, { key: made.body.data.key });
    expectThat(`GET ${path} with a key made through the admin API`, answer, (a) => a.status === 200 && ok(a.body.data));
    log(`GET ${path.split('?')[0]} with a key made through the admin API: 200`);
  }
  return made.body.data.key;
}

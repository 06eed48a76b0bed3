import fc from 'fast-check';
import { validateResponse } from '@tollgate/envelope';
import { HOSTILE_TEXT } from '@tollgate/envelope/test/hostile-requests';
import { startRedisServer } from '../support/redis-server';
import type { RedisServer } from '../support/redis-server';
import { signInCode } from '../support/smtp-inbox';
import { DASHBOARD_ROUTE_DOCS } from '../support/dashboard-route';
import { EVENT_ROUTES } from '../../src/events/event-routes';
import { BILLING_ROUTES } from '../../src/billing/billing-routes';
import { MID_MARCH, startBillingGateway } from '../billing/support/billing-gateway';
import type { BillingGateway, PortalSession } from '../billing/support/billing-gateway';
import { STORE_KINDS } from './attack-target';

// Issue 41, the attack suite's team cases: the owner of one team, signed in with a valid session
// and CSRF token, names another team's key, webhook endpoint, delivery, member, invitation,
// session or checkout by id. Each answer is the one an unknown id of the same shape gets (a 404
// that does not say the id exists elsewhere), and the other team's things are as they were. On
// the embedded SQLite store and on a real redis-server, billing through stripe-local.

jest.setTimeout(180_000);

type Json = ReturnType<typeof JSON.parse>;
type Method = 'GET' | 'PUT' | 'POST' | 'DELETE';

let redis: RedisServer;
beforeAll(async () => {
  redis = await startRedisServer();
});
afterAll(() => redis.stop());

const DOCUMENTED = [...DASHBOARD_ROUTE_DOCS, ...Object.values(EVENT_ROUTES), ...Object.values(BILLING_ROUTES)];
/** The documented route a call is served by, as Express matches it. */
const routeOf = (method: Method, path: string) => DOCUMENTED.find((r) => r.method === method.toLowerCase() && new RegExp(`^${r.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path))!;

/** An id of the same shape that names nothing: its last character changed. */
const twin = (id: string): string => id.slice(0, -1) + (id.endsWith('0') ? '1' : '0');

describe.each(STORE_KINDS)('one team naming another team’s things by id, with the %s store', (kind) => {
  let gw: BillingGateway;
  beforeAll(async () => {
    gw = await startBillingGateway({ start: MID_MARCH, engine: kind === 'redis' ? { kind, url: redis.url } : { kind }, env: { WEBHOOKS_ALLOW_PRIVATE: 'true' } });
  });
  afterAll(() => gw?.close());

  /** A person signed in as the portal does it: a code mailed to a real SMTP server, typed back. */
  const signIn = async (email: string): Promise<PortalSession> => {
    const before = gw.mail.count(email);
    const asked = await fetch(`${gw.url}/dashboard/v1/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });
    expect(asked.status).toBe(202);
    const { code } = signInCode(await gw.mail.next(email, before));
    const verified = await fetch(`${gw.url}/dashboard/v1/sign-in/verify`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, code }) });
    expect(verified.status).toBe(200);
    const cookie = verified.headers.getSetCookie().find((c) => c.startsWith('tg_session='))!.split(';')[0]!.slice('tg_session='.length);
    return { cookie, csrf: ((await verified.json()) as Json).data.csrf_token };
  };
  /** A dashboard call with a session's cookie and CSRF token; every answer is checked against its route's documentation. */
  const dash = async (session: PortalSession, method: Method, path: string, body?: unknown): Promise<{ status: number; body: Json }> => {
    const res = await fetch(`${gw.url}/dashboard/v1${path}`, {
      method,
      headers: { cookie: `tg_session=${session.cookie}`, 'x-csrf-token': session.csrf, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = { status: res.status, body: (await res.json()) as Json };
    expect(validateResponse(routeOf(method, `/dashboard/v1${path}`), answer.status, answer.body)).toEqual([]);
    return answer;
  };

  /** Team B as its owner made it: a key that calls, a webhook endpoint with a delivery, a pending invitation, a second member, an open checkout. */
  const teamB = async (tag: string) => {
    const owner = await signIn(`b-owner-${tag}-${kind}@teams.test`);
    const second = await signIn(`b-owner-${tag}-${kind}@teams.test`);
    expect((await dash(owner, 'PUT', '/subscriptions/token', { plan: 'free' })).status).toBe(200);
    const key = (await dash(owner, 'POST', '/keys', { name: 'b-key' })).body.data as { id: string; key: string };
    const endpoint = (await dash(owner, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/b-hooks', types: ['key.revoked'] })).body.data.id as string;
    const delivery = (await dash(owner, 'POST', `/webhooks/${endpoint}/test`)).body.data.id as string;
    const invitation = (await dash(owner, 'POST', '/team/invitations', { email: `b-invited-${tag}-${kind}@teams.test`, role: 'developer' })).body.data.id as string;
    const { teams, person } = (await dash(owner, 'GET', '/teams')).body.data;
    const teamId = teams[0].id as string;
    const ownerPerson = person.id as string;
    const devPerson = await gw.stores.teamStore.createPerson({ email: `b-dev-${tag}-${kind}@teams.test` });
    await gw.stores.teamStore.addMember(teamId, devPerson.id, 'developer', { invitedBy: ownerPerson });
    const checkout = await dash(owner, 'POST', '/billing/checkout', { api: 'token', plan: 'pro' });
    expect(checkout.status).toBe(200);
    const sessions = (await dash(owner, 'GET', '/account/sessions')).body.data.sessions as { id: string; current: boolean }[];
    expect(sessions).toHaveLength(2);
    return { owner, second, teamId, key, endpoint, delivery, invitation, member: devPerson.id, ownerPerson, checkout: checkout.body.data.session_id as string, session: sessions.find((s) => !s.current)!.id };
  };
  type TeamB = Awaited<ReturnType<typeof teamB>>;

  /** What team B holds, as its owner and the API see it (what an attack must leave as it was). */
  const stateOf = async (b: TeamB) => ({
    keys: (await dash(b.owner, 'GET', '/keys')).body.data.items,
    keyCalls: (await gw.call(b.key.key, '/token/v1/prices')).status,
    webhooks: (await dash(b.owner, 'GET', '/webhooks')).body.data,
    deliveries: (await dash(b.owner, 'GET', `/webhooks/${b.endpoint}/deliveries`)).body.data.map((d: { id: string; type: string }) => [d.id, d.type]),
    secret: (await gw.stores.eventStore.getEndpoint(b.teamId, b.endpoint))?.secret,
    members: (await dash(b.owner, 'GET', '/team/members')).body.data.members.map((m: { person_id: string; role: string }) => [m.person_id, m.role]),
    invitations: (await dash(b.owner, 'GET', '/team/invitations')).body.data.invitations.map((i: { id: string }) => i.id),
    sessions: (await dash(b.owner, 'GET', '/account/sessions')).body.data.sessions.map((s: { id: string }) => s.id).sort(),
    checkout: (await gw.stripe.checkout.sessions.retrieve(b.checkout)).status,
    checkoutRead: (await dash(b.owner, 'GET', `/billing/checkout/${b.checkout}`)).status,
  });

  /** Every route that takes an id, named with B's ids: [method, path, body]. */
  const attacks = (b: TeamB, ownEndpoint: string): [Method, string, unknown?][] => [
    ['POST', `/keys/${b.key.id}/roll`, { grace_seconds: 0 }],
    ['POST', `/keys/${b.key.id}/end-grace`],
    ['DELETE', `/keys/${b.key.id}`],
    ['PUT', `/webhooks/${b.endpoint}`, { url: 'http://127.0.0.1:9/stolen', types: ['key.created'] }],
    ['POST', `/webhooks/${b.endpoint}/rotate-secret`, { overlap_hours: 0 }],
    ['POST', `/webhooks/${b.endpoint}/test`],
    ['GET', `/webhooks/${b.endpoint}/deliveries`],
    ['POST', `/webhooks/${b.endpoint}/deliveries/${b.delivery}/redeliver`],
    ['POST', `/webhooks/${ownEndpoint}/deliveries/${b.delivery}/redeliver`],
    ['DELETE', `/webhooks/${b.endpoint}`],
    ['PUT', `/team/members/${b.member}`, { role: 'admin' }],
    ['PUT', `/team/members/${b.ownerPerson}`, { role: 'developer' }],
    ['DELETE', `/team/members/${b.member}`],
    ['DELETE', `/team/invitations/${b.invitation}`],
    ['DELETE', `/account/sessions/${b.session}`],
    ['GET', `/billing/checkout/${b.checkout}`],
  ];
  /** The same call with every one of B's ids changed into one that names nothing. */
  const unknownTwin = (b: TeamB, path: string): string =>
    [b.key.id, b.endpoint, b.delivery, b.member, b.ownerPerson, b.invitation, b.session, b.checkout].reduce((p, id) => p.split(id).join(twin(id)), path);

  it('when team A’s owner rolls, ends the grace of or revokes B’s key, changes, rotates, tests, reads, redelivers or deletes B’s webhook, changes or removes B’s members, revokes B’s invitation, signs out B’s session or reads B’s checkout, then each answer is the one an unknown id gets, a 404, and B’s things are as they were', async () => {
    const a = await signIn(`a-owner-${kind}@teams.test`);
    const ownEndpoint = (await dash(a, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/a-hooks', types: ['key.revoked'] })).body.data.id as string;
    const b = await teamB('ids');
    const before = await stateOf(b);
    expect([before.keyCalls, before.checkout, before.checkoutRead, before.deliveries.length, before.members.length, before.invitations.length]).toEqual([200, 'open', 200, 1, 2, 1]);

    for (const [method, path, body] of attacks(b, ownEndpoint)) {
      const theirs = await dash(a, method, path, body);
      const unknown = await dash(a, method, unknownTwin(b, path), body);
      expect([method, path, theirs.status, theirs.body.error?.code]).toEqual([method, path, 404, 'NOT_FOUND']);
      // All but the request's own id and time.
      const { meta: _theirMeta, ...theirAnswer } = theirs.body;
      const { meta: _unknownMeta, ...unknownAnswer } = unknown.body;
      expect([method, path, theirAnswer]).toEqual([method, path, unknownAnswer]);
    }

    expect(await stateOf(b)).toEqual(before);
    expect((await dash(a, 'GET', '/keys')).body.data.items).toEqual([]);
    expect((await dash(a, 'GET', '/team/members')).body.data.members).toHaveLength(1);
  });

  it('when random and hostile ids reach every route that takes one, then no answer is a 5xx, each is in its documented shape, and B’s things are as they were (property-based)', async () => {
    const a = await signIn(`a-random-${kind}@teams.test`);
    const ownEndpoint = (await dash(a, 'POST', '/webhooks', { url: 'http://127.0.0.1:9/a-random', types: ['key.revoked'] })).body.data.id as string;
    const b = await teamB('random');
    const before = await stateOf(b);
    const hostile = HOSTILE_TEXT.filter((t) => t.length > 0 && !/[/?#%\uD800-\uDFFF]/.test(t));
    const id = fc.oneof(
      fc.constantFrom(...hostile),
      fc.stringMatching(/^(key|whe|whd|per|inv|acc|cs)_[0-9A-Za-z]{0,40}$/),
      fc.constantFrom(b.key.id, b.endpoint, b.delivery, b.member, b.invitation, b.session, b.checkout, b.teamId).map(twin),
    );
    // Each route with its first id left open: `\0` marks where the random one goes.
    const bIds = [b.key.id, b.endpoint, b.delivery, b.member, b.ownerPerson, b.invitation, b.session, b.checkout];
    const shape = fc.constantFrom(...attacks(b, ownEndpoint).map(([method, path, body]) => [method, path.replace(bIds.find((i) => path.includes(i))!, '\0'), body] as const));
    const statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(shape, id, async ([method, template, body], v) => {
        const path = template.replace('\0', encodeURIComponent(v));
        const res = await dash(a, method, path, body);
        statuses.add(res.status);
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 80, seed: 20260441 },
    );
    expect([...statuses]).toContain(404);
    expect(await stateOf(b)).toEqual(before);
  });
});

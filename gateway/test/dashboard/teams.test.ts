import request from 'supertest';
import type { Response } from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { ROUTE_ACTIONS } from '../../src/domain/team-roles';
import { sha256 } from '../../src/data/session-store';
import type { TeamAction, TeamRole } from '../../src/domain/team-roles';
import { dashboardRouteOf } from '../support/dashboard-route';
import { startEchoUpstream } from '../support/echo-upstream';
import type { EchoUpstream } from '../support/echo-upstream';
import { buildGateway } from '../support/gateway-fixture';
import type { GatewayFixture } from '../support/gateway-fixture';
import { signInCode, startSmtpInbox } from '../support/smtp-inbox';
import type { SmtpInbox } from '../support/smtp-inbox';

jest.setTimeout(60_000);

const START = Date.parse('2026-03-10T12:00:00.000Z');
const DAY = 86_400_000;
// The roles table of docs/teams.md, written out here apart from the code it checks.
const ALLOWED: Record<TeamAction, TeamRole[]> = {
  'team.read': ['owner', 'admin', 'billing', 'developer'],
  'keys.write': ['owner', 'admin', 'developer'],
  'events.manage': ['owner', 'admin', 'developer'],
  'plans.free': ['owner', 'admin', 'billing'],
  billing: ['owner', 'billing'],
  'members.manage': ['owner', 'admin'],
  'owners.manage': ['owner'],
  'audit.read': ['owner', 'admin'],
  'team.admin': ['owner'],
  self: ['owner', 'admin', 'billing', 'developer'],
};
// Routes whose success would end the caller's membership or session: each has a test of its own.
const ENDS_THE_CALLER = new Set(['DELETE /dashboard/v1/session', 'POST /dashboard/v1/team/leave', 'POST /dashboard/v1/teams/switch', 'DELETE /dashboard/v1/account/sessions']);

let upstream: EchoUpstream;
let inbox: SmtpInbox;
beforeAll(async () => {
  [upstream, inbox] = await Promise.all([startEchoUpstream(), startSmtpInbox()]);
});
afterAll(async () => {
  await Promise.all([upstream.close(), inbox.close()]);
});

type Method = 'get' | 'post' | 'put' | 'delete';
interface Session {
  cookie: string;
  csrf: string;
  accountId: string;
  email: string;
}

describe('teams through the dashboard API', () => {
  let gw: GatewayFixture;
  let n = 0;
  let owner: Session;
  beforeEach(async () => {
    gw = await buildGateway({ upstream: upstream.url, start: START, env: { SMTP_URL: inbox.url, MAIL_FROM: 'Tollgate <portal@tollgate.test>', TEAM_MAX_MEMBERS: '5', TEAM_MAX_PENDING_INVITES: '3' } });
    n++;
    owner = await signIn(`owner${n}@teams.test`);
  });
  afterEach(() => gw.close());

  /** Calls a dashboard route and checks the answer against its RouteDoc. */
  async function dash(method: Method, route: string, options: { session?: Session; csrf?: string | false; body?: object } = {}): Promise<Response> {
    let call = request(gw.app)[method](`/dashboard/v1${route}`);
    if (options.session) call = call.set('cookie', `tg_session=${options.session.cookie}`);
    if (options.session && options.csrf !== false) call = call.set('x-csrf-token', options.csrf ?? options.session.csrf);
    const res = await (options.body === undefined ? call : call.send(options.body));
    const doc = dashboardRouteOf(method, `/dashboard/v1${route}`);
    if (doc) expect(validateResponse(doc, res.status, res.body)).toEqual([]);
    return res;
  }
  const cookieOf = (res: Response): string => ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('tg_session='))!.split(';')[0]!.slice('tg_session='.length);
  async function signIn(email: string): Promise<Session> {
    const after = inbox.count(email);
    expect((await dash('post', '/sign-in', { body: { email } })).status).toBe(202);
    const mail = await inbox.next(email, after);
    const res = await dash('post', '/sign-in/verify', { body: { email, code: signInCode(mail).code } });
    expect(res.status).toBe(200);
    return { cookie: cookieOf(res), csrf: res.body.data.csrf_token, accountId: res.body.data.account.id, email };
  }
  const codeOf = (text: string): string => /#code=([A-Za-z0-9_-]{43})$/m.exec(text)![1]!;
  /** Invites an address as `role` and returns the code its mail carries. */
  async function invite(email: string, role: TeamRole, by: Session = owner): Promise<string> {
    const after = inbox.count(email);
    const res = await dash('post', '/team/invitations', { session: by, body: { email, role } });
    expect(res.status).toBe(201);
    return codeOf((await inbox.next(email, after)).text);
  }
  /** A person invited as `role`, signed in, accepted and switched to the owner's team. */
  async function member(role: TeamRole, name = role): Promise<Session> {
    const email = `${name}${n}@teams.test`;
    gw.clock.advance(1_000);
    const code = await invite(email, role);
    const own = await signIn(email);
    expect((await dash('post', '/team/invitations/accept', { session: own, body: { code } })).status).toBe(200);
    const switched = await dash('post', '/teams/switch', { session: own, body: { team: owner.accountId } });
    expect(switched.status).toBe(200);
    expect(switched.body.data.role).toBe(role);
    return { cookie: cookieOf(switched), csrf: switched.body.data.csrf_token, accountId: owner.accountId, email };
  }

  it('when an owner invites people by mail, then each accepts by signing in as the address, switches to the team, and the members list shows every role', async () => {
    const dev = await member('developer');
    const payer = await member('billing');
    const members = await dash('get', '/team/members', { session: dev });
    expect(members.status).toBe(200);
    expect(members.body.data.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [dev.email, 'developer'],
      [payer.email, 'billing'],
    ]);
    const teams = await dash('get', '/teams', { session: dev });
    expect(teams.body.data.teams.map((t: { id: string; role: string; current: boolean }) => [t.role, t.current])).toEqual([
      ['owner', false],
      ['developer', true],
    ]);
    expect(teams.body.data.teams.find((t: { current: boolean }) => t.current).id).toBe(owner.accountId);
    // What the role may do in the current team: the portal offers these and no more.
    expect(teams.body.data.actions).toEqual(['team.read', 'keys.write', 'events.manage', 'self']);
    expect((await dash('get', '/teams', { session: payer })).body.data.actions).toEqual(['team.read', 'plans.free', 'billing', 'self']);
    // The next sign-in opens the team used last.
    expect((await signIn(dev.email)).accountId).toBe(owner.accountId);
  });

  describe('every route against every role', () => {
    const routes = Object.entries(ROUTE_ACTIONS).filter(([route]) => !ENDS_THE_CALLER.has(route));
    it.each(['admin', 'billing', 'developer', 'owner'] as const)('when a %s calls each route, then exactly the routes the roles table denies them answer 403 role', async (role) => {
      const caller = role === 'owner' ? owner : await member(role);
      const wrong: string[] = [];
      for (const [route, action] of routes) {
        const [method, path] = route.split(' ') as [string, string];
        // Placeholder ids and a body no route takes: an allowed call fails its validation or finds nothing, and changes nothing.
        const url = path.replace('/dashboard/v1', '').replace(/\{[^}]+\}/g, 'x0');
        const res = await dash(method.toLowerCase() as Method, url, { session: caller, body: method === 'GET' ? undefined : { not_a_field: true } });
        const refused = res.status === 403 && res.body.error?.details?.reason === 'role';
        if (refused === ALLOWED[action].includes(role)) wrong.push(`${route}: ${res.status} ${JSON.stringify(res.body.error ?? null)}`);
      }
      expect(wrong).toEqual([]);
    });
  });

  it('when an invitation code is reused, presented by another address, or expired, then each is refused with its own reason and the team is unchanged', async () => {
    const code = await invite(`guest${n}@teams.test`, 'developer');
    const stranger = await signIn(`stranger${n}@teams.test`);
    const other = await dash('post', '/team/invitations/accept', { session: stranger, body: { code } });
    expect([other.status, other.body.error.details.reason]).toEqual([403, 'other_address']);
    expect(other.body.message).not.toContain(`guest${n}@teams.test`);
    const guest = await signIn(`guest${n}@teams.test`);
    expect((await dash('post', '/team/invitations/accept', { session: guest, body: { code } })).status).toBe(200);
    const again = await dash('post', '/team/invitations/accept', { session: guest, body: { code } });
    expect([again.status, again.body.error.details.reason]).toEqual([404, 'unknown_code']);
    const late = await invite(`late${n}@teams.test`, 'billing');
    gw.clock.advance(7 * DAY);
    const lateComer = await signIn(`late${n}@teams.test`);
    const expired = await dash('post', '/team/invitations/accept', { session: lateComer, body: { code: late } });
    expect([expired.status, expired.body.error.details.reason]).toEqual([404, 'expired']);
    const garbage = await dash('post', '/team/invitations/accept', { session: lateComer, body: { code: 'not-a-code' } });
    expect([garbage.status, garbage.body.error.details.reason]).toEqual([404, 'unknown_code']);
    // A week on, the owner's session has lapsed too: a new sign-in opens the team as before.
    owner = await signIn(owner.email);
    expect((await dash('get', '/team/members', { session: owner })).body.data.members).toHaveLength(2);
  });

  it('when an address with an account and one without are invited, then the mails and answers differ only in the address and code', async () => {
    const known = `known${n}@teams.test`;
    await signIn(known);
    const unknown = `unknown${n}@teams.test`;
    const answers = [];
    const mails = [];
    for (const email of [known, unknown]) {
      const after = inbox.count(email);
      const res = await dash('post', '/team/invitations', { session: owner, body: { email, role: 'developer' } });
      answers.push([res.status, Object.keys(res.body.data).sort()]);
      const mail = await inbox.next(email, after);
      mails.push([mail.subject, mail.text.replaceAll(email, 'ADDRESS').replace(/http:\/\/127\.0\.0\.1:\d+\//, 'ORIGIN/').replace(/code=[A-Za-z0-9_-]{43}/, 'code=CODE')]);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(mails[0]).toEqual(mails[1]);
    expect(mails[0]![0]).toContain(owner.email);
  });

  it('when the owner removes a developer, then their session ends at once (old cookie and CSRF token), the key they made keeps working for the team and is listed as theirs, and the audit log names each step with its person', async () => {
    const dev = await member('developer');
    const made = await dash('post', '/keys', { session: dev, body: { name: 'ci' } });
    expect(made.status).toBe(201);
    const key = made.body.data.key as string;
    await dash('put', '/subscriptions/token', { session: owner, body: { plan: 'free' } });
    expect((await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', key)).status).toBe(200);
    const devId = (await dash('get', '/teams', { session: dev })).body.data.person.id as string;

    const removed = await dash('delete', `/team/members/${devId}`, { session: owner });
    expect([removed.status, removed.body.data.role]).toEqual([200, 'developer']);
    const after = await dash('get', '/keys', { session: dev });
    expect([after.status, after.body.error.details.reason]).toEqual([401, 'no_session']);
    expect((await dash('post', '/keys', { session: dev, body: { name: 'after' } })).status).toBe(401);
    expect((await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', key)).status).toBe(200);
    gw.clock.advance(1_000);
    const byKey = await request(gw.app).post('/dashboard/v1/keys').set('x-tollgate-key', key).send({ name: 'scripted' });
    expect(byKey.status).toBe(201);
    // Keys are the team's: the list names who made each, the removed developer too; a key made with a key names nobody.
    const listed = (await dash('get', '/keys', { session: owner })).body.data.items.map((k: { name: string; created_by: unknown }) => [k.name, k.created_by]);
    expect(listed).toEqual([
      ['ci', { person_id: devId, email: dev.email }],
      ['scripted', null],
    ]);

    const audit = await gw.stores.auditLog.list({ accountId: owner.accountId, limit: 50, oldestFirst: true });
    const steps = audit.items.filter((e) => e.action.startsWith('team.')).map((e) => [e.action, e.actor.id]);
    const ownerId = (await dash('get', '/teams', { session: owner })).body.data.person.id;
    expect(steps).toEqual([
      ['team.invite', ownerId],
      ['team.invite_accept', devId],
      ['team.member_remove', ownerId],
    ]);
  });

  it('when the last owner leaves or is demoted, then it is refused; once another owner exists, the first may leave and their session ends', async () => {
    const left = await dash('post', '/team/leave', { session: owner });
    expect([left.status, left.body.error.details.reason]).toEqual([409, 'last_owner']);
    const ownerId = (await dash('get', '/teams', { session: owner })).body.data.person.id;
    const demoted = await dash('put', `/team/members/${ownerId}`, { session: owner, body: { role: 'admin' } });
    expect([demoted.status, demoted.body.error.details.reason]).toEqual([409, 'last_owner']);
    const admin = await member('admin');
    const adminId = (await dash('get', '/teams', { session: admin })).body.data.person.id;
    // An admin neither makes an owner nor removes one.
    expect((await dash('put', `/team/members/${adminId}`, { session: admin, body: { role: 'owner' } })).status).toBe(403);
    expect((await dash('delete', `/team/members/${ownerId}`, { session: admin })).status).toBe(403);
    expect((await dash('put', `/team/members/${adminId}`, { session: owner, body: { role: 'owner' } })).body.data.role).toBe('owner');
    const gone = await dash('post', '/team/leave', { session: owner });
    expect(gone.status).toBe(200);
    expect((await dash('get', '/account', { session: owner })).status).toBe(401);
    expect((await dash('get', '/team/members', { session: admin })).body.data.members.map((m: { role: string }) => m.role)).toEqual(['owner']);
  });

  it('when a member of one team names another team’s key, member or invitation by id, then it answers as for an unknown id (every id route, on SQLite and Redis: attacks/team-ids.test.ts)', async () => {
    const other = await signIn(`other${n}@teams.test`);
    const theirKey = (await dash('post', '/keys', { session: other, body: { name: 'theirs' } })).body.data.id as string;
    const theirInvite = (await dash('post', '/team/invitations', { session: other, body: { email: `x${n}@teams.test`, role: 'developer' } })).body.data.id as string;
    const otherId = (await dash('get', '/teams', { session: other })).body.data.person.id as string;
    expect((await dash('delete', `/keys/${theirKey}`, { session: owner })).status).toBe(404);
    expect((await dash('delete', `/team/invitations/${theirInvite}`, { session: owner })).status).toBe(404);
    expect((await dash('delete', `/team/members/${otherId}`, { session: owner })).status).toBe(404);
    expect((await dash('put', `/team/members/${otherId}`, { session: owner, body: { role: 'admin' } })).status).toBe(404);
    expect((await dash('post', '/teams/switch', { session: owner, body: { team: other.accountId } })).status).toBe(404);
    expect((await dash('get', '/keys', { session: other })).body.data.items).toHaveLength(1);
  });

  it('when the owner of a session begun before teams is removed, then that session is over at its next request and the portal reads it as signed out', async () => {
    const account = await gw.stores.accountStore.createAccount({ email: `before${n}@teams.test` });
    const cookie = 'b'.repeat(43);
    await gw.stores.sessionStore.putSession(sha256(cookie), { account_id: account.id, csrf_token: 'c'.repeat(43), created_at: new Date(START).toISOString(), expires_at: new Date(START + DAY).toISOString() });
    const old: Session = { cookie, csrf: 'c'.repeat(43), accountId: account.id, email: account.email! };
    expect((await dash('get', '/team/members', { session: old })).body.data.members.map((m: { role: string }) => m.role)).toEqual(['owner']);
    const person = (await gw.stores.teamStore.findPersonByEmail(account.email!))!;
    const heir = await gw.stores.teamStore.createPerson({ email: `heir${n}@teams.test` });
    await gw.stores.teamStore.addMember(account.id, heir.id, 'owner', { invitedBy: person.id });
    await gw.stores.teamStore.removeMember(account.id, person.id);
    const state = await dash('get', '/session/state', { session: old });
    expect([state.status, state.body.data]).toEqual([200, { signed_in: false }]);
    expect((await dash('get', '/keys', { session: old })).status).toBe(401);
  });

  it('when a team is at its limits, then one more invitation is refused naming the limit', async () => {
    for (let i = 0; i < 3; i++) await invite(`p${i}-${n}@teams.test`, 'developer');
    const more = await dash('post', '/team/invitations', { session: owner, body: { email: `p9-${n}@teams.test`, role: 'developer' } });
    expect([more.status, more.body.error.details]).toEqual([409, { reason: 'invitations_limit', max: 3 }]);
  });

  it('when a person deletes themselves, then it is refused while they are the last owner of a team with others; a member leaves every team (keys stay), and a team they are alone in goes with them', async () => {
    const dev = await member('developer');
    const made = await dash('post', '/keys', { session: dev, body: { name: 'dev-made' } });
    await dash('put', '/subscriptions/token', { session: owner, body: { plan: 'free' } });
    const devId = (await dash('get', '/teams', { session: dev })).body.data.person.id as string;
    const devOwn = (await dash('get', '/teams', { session: dev })).body.data.teams.find((t: { role: string }) => t.role === 'owner').id as string;

    const refused = await dash('post', '/person/delete', { session: owner, body: {} });
    expect([refused.status, refused.body.error.details]).toEqual([409, { reason: 'last_owner', teams: [{ id: owner.accountId, name: expect.any(String) }] }]);
    expect(refused.body.message).toContain('make one of them owner');

    const after = inbox.count(dev.email);
    expect((await dash('post', '/person/delete', { session: dev, body: {} })).status).toBe(202);
    const mail = await inbox.next(dev.email, after);
    expect(mail.subject).toBe('Confirm deleting yourself from Tollgate');
    const deleted = await dash('post', '/person/delete/confirm', { session: dev, body: { code: signInCode(mail).code } });
    expect([deleted.status, deleted.body.data]).toEqual([200, { deleted: true, person_id: devId, teams_left: [owner.accountId], teams_deleted: [devOwn] }]);
    expect(await gw.stores.teamStore.getPerson(devId)).toBeUndefined();
    expect(await gw.stores.accountStore.getAccount(devOwn)).toBeUndefined();
    expect((await dash('get', '/keys', { session: dev })).status).toBe(401);
    expect((await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', made.body.data.key)).status).toBe(200);
    const members = (await dash('get', '/team/members', { session: owner })).body.data.members.map((m: { email: string }) => m.email);
    expect(members).toEqual([owner.email]);
    const audit = await gw.stores.auditLog.list({ accountId: owner.accountId, limit: 50, oldestFirst: true });
    expect(audit.items.filter((e) => e.action === 'team.member_leave').map((e) => [e.actor.id, e.target, e.details.person_deleted])).toEqual([[devId, devId, true]]);

    // Alone now: the owner goes, and their team with them.
    const ownerAfter = inbox.count(owner.email);
    expect((await dash('post', '/person/delete', { session: owner, body: {} })).status).toBe(202);
    const ownerCode = signInCode(await inbox.next(owner.email, ownerAfter)).code;
    const gone = await dash('post', '/person/delete/confirm', { session: owner, body: { code: ownerCode } });
    expect([gone.status, gone.body.data.teams_deleted, gone.body.data.teams_left]).toEqual([200, [owner.accountId], []]);
    expect((await request(gw.app).get('/token/v1/prices').set('x-tollgate-key', made.body.data.key)).status).toBe(401);
  });

  it('when an owner exports the team, then the export holds its members with their roles and its pending invitations, never a code', async () => {
    const dev = await member('developer');
    const code = await invite(`pending${n}@teams.test`, 'billing');
    const exported = await dash('get', '/account/export', { session: owner });
    expect(exported.status).toBe(200);
    expect(exported.body.data.members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [dev.email, 'developer'],
    ]);
    expect(exported.body.data.invitations.map((i: { email: string; role: string }) => [i.email, i.role])).toEqual([[`pending${n}@teams.test`, 'billing']]);
    expect(JSON.stringify(exported.body)).not.toContain(code);
    expect(JSON.stringify(exported.body)).not.toContain(sha256(code));
    expect((await dash('get', '/account/export', { session: dev })).status).toBe(403);
  });
});


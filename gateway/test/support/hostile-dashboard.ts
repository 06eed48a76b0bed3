import fc from 'fast-check';
import request from 'supertest';
import { HOSTILE_TEXT } from '@tollgate/envelope/test/hostile-requests';
import { codeHash } from '../../src/data/session-store';
import { startEchoUpstream } from './echo-upstream';
import { buildGateway } from './gateway-fixture';
import type { GatewayFixture } from './gateway-fixture';
import { useStarted } from './use-started';

/** Where the property-based dashboard tests' clock stands. */
export const HOSTILE_START = Date.parse('2026-03-10T12:00:00.000Z');

/** Printable ASCII only: Node refuses other header bytes on the client side, before the gateway sees them. */
export const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 });
/** The envelope's hostile strings that can travel in a header. */
export const hostileHeaderText = HOSTILE_TEXT.filter((t) => /^[\x20-\x7e]*$/.test(t));

/**
 * One in-memory gateway for a property-based dashboard test file, on a manual clock at
 * {@link HOSTILE_START}, mail to the (silent) log and a sign-in limit high enough that most calls
 * reach the handlers.
 */
export function useHostileDashboard(): GatewayFixture {
  return useStarted(async () => {
    const upstream = await startEchoUpstream();
    const gw = await buildGateway({ upstream: upstream.url, start: HOSTILE_START, env: { SIGNINS_PER_HOUR: '100000' } });
    return {
      ...gw,
      close: async () => {
        await gw.close();
        await upstream.close();
      },
    };
  });
}

/** Signs `email` in with a code put in place of the mailed one (supertest calls come from loopback): the cookie and CSRF token. */
export async function signInWithKnownCode(gw: GatewayFixture, email: string): Promise<{ cookie: string; csrf: string }> {
  await request(gw.app).post('/dashboard/v1/sign-in').send({ email }).expect(202);
  const subject = `sign-in:${email}`;
  await gw.stores.sessionStore.putCode(subject, '127.0.0.1', { hash: codeHash(subject, '123456'), tokenHash: '', expiresAtMs: HOSTILE_START + 900_000, tries: 5 }, { maxLive: 3, nowMs: HOSTILE_START });
  const res = await request(gw.app).post('/dashboard/v1/sign-in/verify').send({ email, code: '123456' }).expect(200);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? [])[0]!.split(';')[0]!.slice('tg_session='.length);
  return { cookie, csrf: res.body.data.csrf_token };
}

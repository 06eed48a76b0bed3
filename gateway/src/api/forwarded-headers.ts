import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import { PROXY_SECRET_HEADER, REQUEST_ID_HEADER } from '@tollgate/envelope/core';
import { HOP_BY_HOP, connectionNamed } from './hop-by-hop';

/** Headers the gateway sets towards the services (client-sent copies are removed first). */
export const USER_HEADER = 'x-tollgate-user';
export const SUBSCRIPTION_HEADER = 'x-tollgate-subscription';
const ACCESS_HEADER = 'x-tollgate-access';

/** The portal's CSRF header: it means something to the gateway only, never to a service. */
const CSRF_HEADER = 'x-csrf-token';

/**
 * Whether a cookie is one of the gateway's own (its portal session and anything else it may set):
 * named `tg_…`, bare or with the `__Host-` or `__Secure-` prefix. Such a cookie is never sent to a
 * service, and never accepted from one: a service's `tg_session` would shadow the portal's.
 */
export function isGatewayCookie(name: string): boolean {
  const bare = name.startsWith('__Host-') ? name.slice(7) : name.startsWith('__Secure-') ? name.slice(9) : name;
  return bare.startsWith('tg_');
}

/** A `Cookie` header without the gateway's own cookies; undefined when none is left. */
export function withoutGatewayCookies(cookie: string): string | undefined {
  if (!cookie.includes('tg_')) return cookie;
  const kept = cookie.split(';').filter((part) => {
    const eq = part.indexOf('=');
    return !isGatewayCookie((eq < 0 ? part : part.slice(0, eq)).trim());
  });
  const joined = kept.map((part) => part.trim()).join('; ');
  return joined === '' ? undefined : joined;
}

/** What the headers sent to one API's service depend on. */
export interface ServiceHeaderRules {
  /** The header carrying the API key (never forwarded). */
  keyHeader: string;
  proxySecret?: string;
  /** Whether the client's `Authorization` reaches this service (`FORWARD_AUTHORIZATION`). */
  forwardAuthorization: boolean;
  /** Whether a trusted proxy's `X-Forwarded-For` chain and `-Host` are believed. */
  trust: (address: string, hop: number) => boolean;
}

/**
 * The headers a service receives for an admitted call: the client's, without the key header, its
 * `x-tollgate-*` headers, hop-by-hop headers and those its `Connection` names (they would let a
 * standards-following hop drop the gateway's own), `Expect`, `Host` and `Content-Length` (no body
 * is forwarded), the gateway's cookies and CSRF header, and `Authorization` unless this API takes
 * it. In come the proxy secret, account, plan (and `x-tollgate-access: playground` for a
 * playground call) and request id, and RapidAPI's `X-Forwarded-For`
 * (the caller appended to a trusted proxy's chain; an untrusted caller's own chain is dropped:
 * anyone can write one) and `X-Forwarded-Host` (the host asked for, or a trusted proxy's).
 * A new object rather than the client's with deletions: `delete` makes an object a slow dictionary.
 */
export function serviceHeaders(rules: ServiceHeaderRules, incoming: IncomingHttpHeaders, peer: string | undefined, accountId: string, plan: string, requestId: string, playground = false): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  const named = incoming.connection === undefined ? undefined : connectionNamed(incoming.connection);
  const { keyHeader } = rules;
  // The host asked for, unless the key travels in Host (KEY_HEADER may name it).
  let host: string | undefined;
  for (const name in incoming) {
    if (name === keyHeader || name.startsWith('x-tollgate-') || HOP_BY_HOP.has(name) || named?.has(name)) continue;
    const value = incoming[name];
    if (value === undefined) continue;
    switch (name) {
      case 'host':
        host = value as string;
        continue;
      case 'expect':
      case 'content-length':
      case CSRF_HEADER:
        continue;
      case 'authorization':
        if (!rules.forwardAuthorization) continue;
        break;
      case 'cookie': {
        const kept = withoutGatewayCookies(value as string);
        if (kept !== undefined) headers.cookie = kept;
        continue;
      }
    }
    headers[name] = value;
  }
  const trusted = peer !== undefined && rules.trust(peer, 0);
  const chain = headers['x-forwarded-for'];
  if (peer) headers['x-forwarded-for'] = chain && trusted ? `${String(chain)}, ${peer}` : peer;
  else delete headers['x-forwarded-for'];
  const forwardedHost = (trusted && headers['x-forwarded-host']) || host;
  if (forwardedHost) headers['x-forwarded-host'] = forwardedHost;
  else delete headers['x-forwarded-host'];
  if (rules.proxySecret) headers[PROXY_SECRET_HEADER] = rules.proxySecret;
  headers[USER_HEADER] = accountId;
  headers[SUBSCRIPTION_HEADER] = plan;
  // A playground call has the cheapest plan's features, not that plan: the service may say so.
  if (playground) headers[ACCESS_HEADER] = 'playground';
  headers[REQUEST_ID_HEADER] = requestId;
  return headers;
}

/**
 * The service's answer headers as the client gets them: without hop-by-hop headers and those its
 * `Connection` names (Node frames and keeps alive the client's connection itself), without
 * `Set-Cookie` unless this API may set cookies (`FORWARD_SET_COOKIE`), and even then never one of
 * the gateway's own cookies; then the gateway's headers, which win over the service's.
 */
export function clientHeaders(service: Record<string, string | string[] | undefined>, forwardSetCookie: boolean, gateway: Record<string, string>): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const named = service.connection === undefined ? undefined : connectionNamed(service.connection);
  for (const name in service) {
    if (HOP_BY_HOP.has(name) || named?.has(name)) continue;
    const value = service[name];
    if (value === undefined) continue;
    if (name === 'set-cookie') {
      if (!forwardSetCookie) continue;
      const kept = (Array.isArray(value) ? value : [value]).filter((line) => !isGatewayCookie(line.slice(0, Math.max(0, line.indexOf('='))).trim()));
      if (kept.length) headers[name] = kept;
      continue;
    }
    headers[name] = value;
  }
  for (const name in gateway) headers[name] = gateway[name];
  return headers;
}

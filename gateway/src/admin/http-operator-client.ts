import { AppError } from '@tollgate/envelope/core';
import type { ErrorCode } from '@tollgate/envelope/core';
import type { AuditEntry } from '../data/audit-log';
import type { AccountActions } from '../http/account-actions';
import type { OperatorClient, RotateAdminToken } from './operator-client';

type Query = Record<string, unknown>;

/** What an error envelope carries that the CLI says. */
interface ErrorBody {
  message?: string;
  error?: { code?: string };
}

const path = (...parts: string[]): string => parts.map(encodeURIComponent).join('/');

/** `query` as a query string: only the values given (the routes' defaults apply to the rest, as in the store path). */
function search(query: unknown): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries((query ?? {}) as Query)) if (value !== undefined) params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The client that acts through a running gateway's admin API (`TOLLGATE_URL`), sending the admin
 * token as its bearer. Every answer is the route's `data`; a refusal is thrown as the AppError the
 * gateway answered (same code, same message), so the CLI says the same whichever way it runs.
 */
export function httpClient(baseUrl: string, token: string, fetchImpl: typeof fetch = fetch): OperatorClient & { rotateAdminToken: RotateAdminToken; reloadCatalogue: () => Promise<unknown> } {
  const call = async (method: string, route: string, body?: unknown): Promise<Response> => {
    let res: Response;
    try {
      res = await fetchImpl(`${baseUrl}/admin/v1/${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    } catch (err) {
      const reason = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new Error(`the gateway at ${baseUrl} did not answer (${reason}): is it running there? TOLLGATE_URL names it`, { cause: err });
    }
    if (res.ok) return res;
    const envelope = (await res.json().catch(() => null)) as ErrorBody | null;
    const code = (envelope?.error?.code ?? 'INTERNAL') as ErrorCode;
    const message = envelope?.message ?? `the gateway at ${baseUrl} answered ${res.status}`;
    if (res.status === 401) throw new AppError('UNAUTHORIZED', `${message}: set ADMIN_TOKEN to the gateway's admin token (or ADMIN_TOKEN_FILE to its admin-token file)`);
    if (res.status === 404 && code === 'NOT_FOUND' && /^no route|^not found/i.test(message)) throw new AppError(code, `${message}: is ${baseUrl} a Tollgate gateway of this version?`);
    throw new AppError(code, message);
  };
  const data = async <T = unknown>(method: string, route: string, body?: unknown): Promise<T> => ((await (await call(method, route, body)).json()) as { data: T }).data;
  const account = (id: string, ...rest: string[]): string => path('accounts', id, ...rest);

  const accounts: AccountActions = {
    createAccount: (body) => data('POST', 'accounts', body),
    getAccount: (id) => data('GET', account(id)),
    listAccounts: (query) => data('GET', `accounts${search(query)}`),
    // In the body: the query may be a key's full secret, which a URL would carry into logs.
    findAccounts: (query) => data('POST', 'accounts/search', query),
    subscribe: (id, api, body) => data('PUT', account(id, 'subscriptions', api), body),
    cancel: (id, api) => data('DELETE', account(id, 'subscriptions', api)),
    setStatus: (id, status) => data('POST', account(id, status === 'suspended' ? 'suspend' : 'reactivate')),
    createKey: (id, body) => data('POST', account(id, 'keys'), body),
    listKeys: (id, query) => data('GET', `${account(id, 'keys')}${search(query)}`),
    rollKey: (keyId, body) => data('POST', path('keys', keyId, 'roll'), body),
    revokeKey: (keyId) => data('POST', path('keys', keyId, 'revoke')),
    endGrace: (keyId) => data('POST', path('keys', keyId, 'end-grace')),
    usage: (id) => data('GET', account(id, 'usage')),
    history: (id, query) => data('GET', `${account(id, 'history')}${search(query)}`),
  };
  return {
    describe: baseUrl,
    accounts,
    legacy: {
      create: (body) => data('POST', 'keys', body),
      list: () => data('GET', 'keys'),
      get: (id) => data('GET', path('keys', id)),
      subscribe: (id, api, subscription) => data('PUT', path('keys', id, 'subscriptions', api), subscription),
      revoke: (id) => data('DELETE', path('keys', id)),
      usage: (id) => data('GET', path('keys', id, 'usage')),
    },
    audit: {
      list: (query) => data('GET', `audit${search(query)}`),
      async export(query, write) {
        const res = await call('GET', `audit/export${search(query)}`);
        let count = 0;
        let rest = '';
        const decoder = new TextDecoder();
        // Written as they arrive: an export of a long log is never held whole.
        for await (const chunk of res.body ?? []) {
          const lines = (rest + decoder.decode(chunk as Uint8Array, { stream: true })).split('\n');
          rest = lines.pop() ?? '';
          for (const line of lines.filter(Boolean)) {
            write(JSON.parse(line) as AuditEntry);
            count++;
          }
        }
        if (rest.trim()) {
          write(JSON.parse(rest) as AuditEntry);
          count++;
        }
        return count;
      },
    },
    teams: {
      members: (id) => data('GET', account(id, 'members')),
      addMember: (id, body) => data('POST', account(id, 'members'), body),
      setRole: (id, member, body) => data('PUT', account(id, 'members', member), body),
      removeMember: (id, member) => data('DELETE', account(id, 'members', member)),
      transferOwnership: (id, body) => data('POST', account(id, 'owner'), body),
    },
    billing: {
      reconcile: () => data('POST', 'billing/reconcile'),
      account: (id) => data('GET', `billing/${path('accounts', id)}`),
      summary: () => data('GET', 'billing/summary'),
    },
    rotateAdminToken: () => data('POST', 'admin-token/rotate'),
    reloadCatalogue: () => data('POST', 'catalogue/reload'),
  };
}

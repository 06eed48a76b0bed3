import type { Catalogue } from '../domain/catalogue';

/** What asking a service's `/readyz` found. */
export interface UpstreamHealth {
  api: string;
  /** `ready` (200), `not_ready` (it answered otherwise) or `unreachable` (no answer in time). */
  status: 'ready' | 'not_ready' | 'unreachable';
  /** The service's own reason, or why there was no answer. */
  detail: string;
  checked_at: string;
}

/** Options of {@link createUpstreamHealth}. */
export interface UpstreamHealthOptions {
  /** The catalogue in force: each API's readiness check. */
  catalogue: () => Catalogue;
  clock: () => number;
  /** How long a service may take to answer. */
  timeoutMs?: number;
  /** How long an answer is reused: an overview opened by several operators asks once. */
  maxAgeMs?: number;
  fetchImpl?: typeof fetch;
}

/** Asks each service's readiness check (`/readyz`, which needs no proxy secret), at most once per `maxAgeMs`. */
export function createUpstreamHealth(options: UpstreamHealthOptions): () => Promise<UpstreamHealth[]> {
  const { clock } = options;
  const timeoutMs = options.timeoutMs ?? 2_000;
  const maxAgeMs = options.maxAgeMs ?? 5_000;
  const fetchImpl = options.fetchImpl ?? fetch;
  let last: { atMs: number; names: string; result: Promise<UpstreamHealth[]> } | undefined;
  const ask = async (api: string, url: string): Promise<UpstreamHealth> => {
    const checked_at = new Date(clock()).toISOString();
    try {
      const res = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
      if (res.ok) return { api, status: 'ready', detail: 'ready', checked_at };
      const body = (await res.json().catch(() => null)) as { message?: string } | null;
      return { api, status: 'not_ready', detail: body?.message ?? `answered ${res.status}`, checked_at };
    } catch (err) {
      const reason = (err as Error).name === 'TimeoutError' ? `no answer in ${timeoutMs} ms` : ((err as { cause?: { code?: string } }).cause?.code ?? 'not reachable');
      return { api, status: 'unreachable', detail: reason, checked_at };
    }
  };
  return () => {
    const nowMs = clock();
    const apis = Object.values(options.catalogue().apis);
    // Asked again when a reload changed which APIs there are, however recent the last answer.
    const names = apis.map((api) => api.name).join(',');
    if (!last || nowMs - last.atMs >= maxAgeMs || last.names !== names) last = { atMs: nowMs, names, result: Promise.all(apis.map((api) => ask(api.name, api.health))) };
    return last.result;
  };
}

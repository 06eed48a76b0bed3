import http from 'node:http';
import https from 'node:https';
import { checkConnectTarget, guardedLookup } from './webhook-target';
import type { TargetRules } from './webhook-target';

/** How one attempt went: the status (none when there was no answer), its time, and why it failed. */
export interface AttemptResult {
  status: number | null;
  latencyMs: number;
  error: string | null;
  /** Seconds the endpoint asked to wait (`Retry-After` on 429 and 503), if it did. */
  retryAfterSeconds?: number;
}

// Enough of an answer to be polite to the endpoint; the rest is not read.
const MAX_BODY = 64 * 1024;

/**
 * Sends one signed POST: the socket's address is checked when it connects, redirects are never
 * followed (a 3xx is a failed attempt, so a redirect to a private address goes nowhere), and the
 * whole attempt, connecting included, ends at `timeoutMs`.
 */
export function sendWebhook(url: string, headers: Record<string, string>, payload: string, options: TargetRules & { timeoutMs: number }): Promise<AttemptResult> {
  const started = performance.now();
  const took = (): number => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
      checkConnectTarget(target, options);
    } catch (err) {
      resolve({ status: null, latencyMs: took(), error: (err as Error).message });
      return;
    }
    const client = target.protocol === 'https:' ? https : http;
    let done = false;
    const finish = (result: AttemptResult): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = client.request(
      target,
      {
        method: 'POST',
        agent: false,
        lookup: guardedLookup(options),
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)), 'user-agent': 'Tollgate-Webhooks/1' },
      },
      (res) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_BODY) res.destroy();
        });
        const status = res.statusCode ?? 0;
        const retryAfter = Number(res.headers['retry-after']);
        const answer = (): void =>
          finish({
            status,
            latencyMs: took(),
            error: status >= 200 && status < 300 ? null : `the endpoint answered ${status}${status >= 300 && status < 400 ? ' (redirects are not followed)' : ''}`,
            ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
          });
        res.on('end', answer);
        res.on('close', answer);
      },
    );
    const timer = setTimeout(() => {
      finish({ status: null, latencyMs: took(), error: `no answer within ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, latencyMs: took(), error: err.code === 'ETOLLGATE_TARGET' ? err.message : `${err.code ?? 'error'}: ${err.message}` }));
    request.end(payload);
  });
}

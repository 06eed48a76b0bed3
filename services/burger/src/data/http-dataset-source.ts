import type { DatasetSource, FetchResult, Validators } from './dataset-source';
import { UpstreamError } from './dataset-source';

/**
 * Fetches the CSV over HTTP(S) with a conditional GET; the timeout covers the whole download, so a
 * stalled body cannot hang a refresh.
 */
export function createHttpDatasetSource(url: string, timeoutMs: number): DatasetSource {
  return {
    location: url,
    async fetch(validators: Validators): Promise<FetchResult> {
      const headers: Record<string, string> = { accept: 'text/csv, text/plain, */*' };
      if (validators.etag) headers['if-none-match'] = validators.etag;
      if (validators.lastModified) headers['if-modified-since'] = validators.lastModified;
      try {
        const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
        if (response.status === 304) return { kind: 'not-modified' };
        if (response.status !== 200) {
          await response.body?.cancel();
          throw new UpstreamError(`upstream answered HTTP ${response.status}`);
        }
        const body = await response.text();
        const etag = response.headers.get('etag') ?? undefined;
        const lastModified = response.headers.get('last-modified') ?? undefined;
        return { kind: 'modified', body, validators: { etag, lastModified } };
      } catch (err) {
        if (err instanceof UpstreamError) throw err;
        const name = (err as Error).name;
        if (name === 'TimeoutError' || name === 'AbortError') {
          throw new UpstreamError(`upstream did not answer within ${timeoutMs} ms`, { cause: err });
        }
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new UpstreamError(`upstream request failed (${cause?.code ?? cause?.message ?? (err as Error).message})`, { cause: err });
      }
    },
  };
}

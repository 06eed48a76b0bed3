import type { UsageSinkWriter } from './usage-stream';

/** The batched mode's media type (cloudevents' `CONSTANTS.MIME_CE_BATCH`; the package, 30 modules, is not loaded for a string). */
export const CE_BATCH_TYPE = 'application/cloudevents-batch+json';

/**
 * HTTP batches: one POST of `application/cloudevents-batch+json` (a JSON array of structured
 * events, the form OpenMeter ingests) per batch; any 2xx takes the batch, anything else (or no
 * answer in `timeoutMs`) refuses it and it is sent again.
 */
export function createHttpBatchWriter(url: string, timeoutMs = 10_000): UsageSinkWriter {
  const target = new URL(url);
  return {
    describe: `${target.protocol}//${target.host}${target.pathname}`,
    async write(events) {
      const res = await fetch(target, { method: 'POST', headers: { 'content-type': CE_BATCH_TYPE }, body: `[${events.join(',')}]`, signal: AbortSignal.timeout(timeoutMs) });
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) throw new Error(`the usage sink answered ${res.status}`);
    },
    close: async () => undefined,
  };
}

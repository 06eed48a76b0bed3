import { readFileSync } from 'node:fs';
import { interleavedLoad } from './paced-load';

/**
 * The paced load generator as its own process, so that neither the bench's bookkeeping nor any
 * server shares its event loop. PACED_TARGETS is a JSON list of `{ url, keysFile? }` (a file of
 * one API key a line, rotated; none for the direct upstream), paced in turn for PACED_SLICE_MS
 * each; PACED_RATE, PACED_SECONDS and PACED_WARMUP_SECONDS are each target's. Prints the results,
 * one a target, as JSON.
 */
const targets = (JSON.parse(process.env.PACED_TARGETS ?? '[]') as { url: string; keysFile?: string }[]).map(({ url, keysFile }) => ({
  url,
  keys: keysFile ? readFileSync(keysFile, 'utf8').split('\n').filter(Boolean) : [],
}));
interleavedLoad({
  targets,
  ratePerSecond: Number(process.env.PACED_RATE),
  seconds: Number(process.env.PACED_SECONDS),
  warmupSeconds: Number(process.env.PACED_WARMUP_SECONDS ?? 1),
  sliceMs: Number(process.env.PACED_SLICE_MS ?? Number.POSITIVE_INFINITY),
}).then(
  (results) => process.stdout.write(`${JSON.stringify(results)}\n`),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);

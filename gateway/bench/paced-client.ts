import { readFileSync } from 'node:fs';
import { pacedLoad } from './paced-load';

/**
 * The paced load generator as its own process, so that neither the bench's bookkeeping nor any
 * server shares its event loop. PACED_URL, PACED_RATE, PACED_SECONDS, PACED_WARMUP_SECONDS, and
 * PACED_KEYS_FILE (one API key a line, rotated; none for the direct upstream). Prints the result as JSON.
 */
const keysFile = process.env.PACED_KEYS_FILE;
const keys = keysFile ? readFileSync(keysFile, 'utf8').split('\n').filter(Boolean) : [];
pacedLoad({
  url: process.env.PACED_URL ?? '',
  ratePerSecond: Number(process.env.PACED_RATE),
  seconds: Number(process.env.PACED_SECONDS),
  warmupSeconds: Number(process.env.PACED_WARMUP_SECONDS ?? 1),
  keys,
}).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`),
  (err: unknown) => {
    process.stderr.write(`${String(err)}\n`);
    process.exit(1);
  },
);

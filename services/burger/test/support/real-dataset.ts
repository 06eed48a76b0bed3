import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** Where the shared checkout keeps the real full index: `<repo root>/../shared/data/big-mac/`. */
export const REAL_DATASET_PATH = resolve(__dirname, '..', '..', '..', '..', '..', 'shared', 'data', 'big-mac', 'big-mac-full-index.csv');

/** The real CSV's text; fails with a one-line hint when the shared data is not there. */
export function realDatasetText(): string {
  if (!existsSync(REAL_DATASET_PATH)) {
    throw new Error(`real Big Mac dataset missing: expected ${REAL_DATASET_PATH} (the shared data directory beside the repo)`);
  }
  return readFileSync(REAL_DATASET_PATH, 'utf8');
}

/** The CSV read without the service's parser (the file has no quoted fields), one object per row. */
export function plainRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split(/\r?\n/);
  const names = (header ?? '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i] ?? '', cell])));
}

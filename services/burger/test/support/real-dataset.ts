import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

/** The repository's copy of The Economist's full index (services/burger/dataset/SOURCE.md says whence). */
export const REAL_DATASET_PATH = resolve(__dirname, '..', '..', 'dataset', 'big-mac-full-index.csv');

/** The real CSV's text. */
export function realDatasetText(): string {
  return readFileSync(REAL_DATASET_PATH, 'utf8');
}

/** The CSV read without the service's parser (the file has no quoted fields), one object per row. */
export function plainRows(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trim().split(/\r?\n/);
  const names = (header ?? '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((cell, i) => [names[i] ?? '', cell])));
}

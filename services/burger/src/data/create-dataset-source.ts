import { fileURLToPath } from 'node:url';
import type { DatasetSource } from './dataset-source';
import { createFileDatasetSource } from './file-dataset-source';
import { createHttpDatasetSource } from './http-dataset-source';

/** The source `BURGER_DATA_URL` names: an http(s) URL, a file: URL or a local path. */
export function createDatasetSource(location: string, timeoutMs: number): DatasetSource {
  if (/^https?:\/\//i.test(location)) return createHttpDatasetSource(location, timeoutMs);
  if (/^file:\/\//i.test(location)) return createFileDatasetSource(fileURLToPath(location));
  return createFileDatasetSource(location);
}

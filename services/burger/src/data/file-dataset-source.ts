import { readFile, stat } from 'node:fs/promises';
import type { DatasetSource, FetchResult, Validators } from './dataset-source';
import { UpstreamError } from './dataset-source';

/** Reads the CSV from a local file; modification time and size stand in for an ETag. */
export function createFileDatasetSource(path: string): DatasetSource {
  return {
    location: path,
    async fetch(validators: Validators): Promise<FetchResult> {
      try {
        const info = await stat(path);
        const etag = `${info.mtimeMs}-${info.size}`;
        if (validators.etag === etag) return { kind: 'not-modified' };
        return { kind: 'modified', body: await readFile(path, 'utf8'), validators: { etag } };
      } catch (err) {
        throw new UpstreamError(`cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, { cause: err });
      }
    },
  };
}

/** Cache validators of the copy we hold, sent back to revalidate it. */
export interface Validators {
  etag?: string;
  lastModified?: string;
}

/** What one fetch of the dataset brought: a new body, or confirmation that ours is current. */
export type FetchResult = { kind: 'modified'; body: string; validators: Validators } | { kind: 'not-modified' };

/** Where the full-index CSV comes from. Throws {@link UpstreamError} when it cannot be had. */
export interface DatasetSource {
  /** Where it points, for logs and meta. */
  readonly location: string;
  fetch(validators: Validators): Promise<FetchResult>;
}

/** The upstream did not deliver: unreachable, timed out, or answered with an error status. */
export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
}

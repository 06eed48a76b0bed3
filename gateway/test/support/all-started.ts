/**
 * Waits for every start, and throws the first failure only once all have settled. Unlike
 * `Promise.all`, the starts that succeeded have by then recorded what they opened, so the
 * test's cleanup closes them instead of leaving them running (and jest unable to exit).
 */
export async function allStarted(starts: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(starts)).find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Something a test file starts once (a portal, a gateway beside stripe-local): started before the
 * tests of the block it is called in (beforeAll, so a beforeAll registered after this call sees it
 * started) and closed after them. The object returned is filled in when it has started; its fields
 * are not there before.
 */
export function useStarted<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  const started = {} as T;
  beforeAll(async () => {
    Object.assign(started, await start());
  });
  afterAll(async () => {
    await started.close?.();
  });
  return started;
}

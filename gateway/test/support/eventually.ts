const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls `check` every 100 ms until it is true; fails naming `what` after 10 s (given a function,
 * what it says then, such as the last value seen, so a failure shows how far things got).
 */
export async function eventually(check: () => Promise<boolean>, what: string | (() => string)): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await sleep(100);
  }
  throw new Error(`${typeof what === 'function' ? what() : what} did not happen within 10 s`);
}

/**
 * Shares one in-flight call among identical concurrent requests; the entry is dropped as soon as
 * the call settles, so nothing is cached.
 */
export function createCoalescer<T>(): (key: string, call: () => Promise<T>) => Promise<T> {
  const inFlight = new Map<string, Promise<T>>();
  return (key, call) => {
    const pending = inFlight.get(key);
    if (pending) return pending;
    const started = call().finally(() => inFlight.delete(key));
    inFlight.set(key, started);
    return started;
  };
}

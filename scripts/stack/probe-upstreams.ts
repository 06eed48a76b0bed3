import type { DeployableName } from './deployables';
import { probeUrl } from './probe-url';
import type { UpstreamUrls } from './upstream-urls';

/** An upstream a service cannot use, and why. */
export interface UpstreamProblem {
  deployable: Exclude<DeployableName, 'gateway'>;
  /** What the upstream is, for people: "Big Mac CSV", "price indexer", "Ethereum JSON-RPC". */
  upstream: string;
  url: string;
  reason: string;
}

/** Where to probe, and for how long at most. */
export interface ProbeInput {
  /** The running burger service, whose /readyz says whether its dataset is loaded. */
  burgerServiceUrl: string;
  upstreams: UpstreamUrls;
  timeoutMs?: number;
}

/**
 * Finds the upstreams the services cannot reach, all at once and within the time (3 s): burger by
 * its own readiness (has it loaded the dataset?), token and logs, whose readiness says nothing
 * about their upstreams, by a request to the price indexer's and the Ethereum RPC's host.
 */
export async function probeUpstreams({ burgerServiceUrl, upstreams, timeoutMs = 3_000 }: ProbeInput): Promise<UpstreamProblem[]> {
  const [burger, token, logs] = await Promise.all([
    probeBurger(burgerServiceUrl, upstreams.burger, timeoutMs),
    probeUrl(upstreams.token, timeoutMs),
    probeUrl(upstreams.logs, timeoutMs),
  ]);
  const problems: UpstreamProblem[] = [];
  if (burger) problems.push({ deployable: 'burger', upstream: 'Big Mac CSV', url: upstreams.burger, reason: burger });
  if (token) problems.push({ deployable: 'token', upstream: 'price indexer', url: upstreams.token, reason: token });
  if (logs) problems.push({ deployable: 'logs', upstream: 'Ethereum JSON-RPC', url: upstreams.logs, reason: logs });
  return problems;
}

// Polls burger's /readyz until the dataset is in or the time is up. A load that failed is the
// answer; one still running is only a problem if the CSV's host does not answer either (a slow
// download is not an outage).
async function probeBurger(serviceUrl: string, dataUrl: string, timeoutMs: number): Promise<string | undefined> {
  const host = /^https?:/i.test(dataUrl) ? probeUrl(dataUrl, timeoutMs) : Promise.resolve(undefined);
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer from the burger service';
  for (;;) {
    try {
      const res = await fetch(`${serviceUrl}/readyz`, { signal: AbortSignal.timeout(Math.max(1, deadline - Date.now())) });
      const body = (await res.json()) as { message?: string };
      if (res.ok) return undefined;
      last = body.message ?? `readyz answered ${res.status}`;
      // "not loaded yet: <error>": the first load failed.
      const failed = /not loaded yet: (.+)$/.exec(last);
      if (failed) return failed[1];
    } catch (err) {
      last = (err as Error).message;
    }
    if (Date.now() + 100 >= deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const hostProblem = await host;
  return hostProblem ?? `the dataset is not loaded after ${timeoutMs / 1000} s (${last}); its host answers, so it may still be downloading`;
}

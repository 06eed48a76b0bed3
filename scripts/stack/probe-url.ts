/**
 * Asks the origin of an http(s) URL for anything at all (HEAD /) within the time: resolves
 * undefined when it answers, whatever the status, else a short reason (name not resolved,
 * connection refused, no answer). Cheap enough to run at every start; it proves DNS, TCP and TLS,
 * not that the upstream would serve a real call.
 */
export async function probeUrl(url: string, timeoutMs: number): Promise<string | undefined> {
  let origin: string;
  try {
    origin = new URL(url).origin;
  } catch {
    return `not a URL: ${url}`;
  }
  try {
    const res = await fetch(`${origin}/`, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return undefined;
  } catch (err) {
    return describeFetchError(err as FetchError, timeoutMs);
  }
}

type FetchError = Error & { cause?: { code?: string; message?: string } };

function describeFetchError(err: FetchError, timeoutMs: number): string {
  if (err.name === 'TimeoutError' || err.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const code = err.cause?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `its host name does not resolve (${code})`;
  if (code === 'ECONNREFUSED') return 'connection refused';
  return code ?? err.cause?.message ?? err.message;
}

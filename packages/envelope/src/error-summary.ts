/** What a log line says about a failure: the cause in one line, never a stack or a client object. */
export interface ErrorSummary {
  /** First lines of the messages along the cause chain, joined by `: `, at most 300 characters. */
  message: string;
  /** The first system or library code on the chain (`ECONNREFUSED`, `ETIMEDOUT`, `-32005`). */
  code?: string;
  /** The upstream host (and port) the failure concerns; never the whole URL, which may hold a key. */
  host?: string;
  /** The upstream's HTTP status, when one answered. */
  status?: number;
}

const MAX_MESSAGE = 300;
const MAX_DEPTH = 6;

// The first line, without a closing full stop, since the lines are joined by `: `.
function firstLine(text: unknown): string {
  return typeof text === 'string' ? (text.split('\n', 1)[0] ?? '').trim().replace(/\.$/, '') : '';
}

function hostOf(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  try {
    return new URL(value).host || undefined;
  } catch {
    return undefined;
  }
}

function hostIn(e: Record<string, unknown>): string | undefined {
  const config = e.config as Record<string, unknown> | undefined;
  const fromConfig = config ? (hostOf(config.url) ?? hostOf(config.baseURL)) : undefined;
  if (fromConfig) return fromConfig;
  const fromUrl = hostOf(e.url);
  if (fromUrl) return fromUrl;
  if (typeof e.hostname === 'string') return e.hostname;
  if (typeof e.address === 'string') return typeof e.port === 'number' ? `${e.address}:${e.port}` : e.address;
  return undefined;
}

/**
 * Reduces any thrown value to the facts an operator needs, for logging failures of upstream calls:
 * axios and viem errors carry their request config, agents, bodies and stacks, which made one
 * failed call dozens of lines of log.
 *
 * @example
 * logger.warn({ cause: summarizeError(err) }, 'chain list refresh failed');
 */
export function summarizeError(err: unknown): ErrorSummary {
  const messages: string[] = [];
  const summary: ErrorSummary = { message: '' };
  let current: unknown = err;
  for (let depth = 0; depth < MAX_DEPTH && current !== undefined && current !== null; depth++) {
    if (typeof current !== 'object') {
      messages.push(firstLine(String(current)));
      break;
    }
    const e = current as Record<string, unknown>;
    const line = firstLine(e.shortMessage) || firstLine(e.message);
    if (line && !messages.some((m) => m.includes(line))) messages.push(line);
    // An AppError's code is our own answer's; the cause's code is what an operator needs.
    if (summary.code === undefined && e.name !== 'AppError' && (typeof e.code === 'string' || typeof e.code === 'number')) {
      summary.code = String(e.code);
    }
    summary.host ??= hostIn(e);
    const response = e.response as Record<string, unknown> | undefined;
    const status = typeof e.status === 'number' ? e.status : typeof response?.status === 'number' ? response.status : undefined;
    if (summary.status === undefined && status !== undefined && e.name !== 'AppError') summary.status = status;
    current = e.cause;
  }
  const message = messages.filter(Boolean).join(': ') || 'unknown error';
  summary.message = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
  return Object.fromEntries(Object.entries(summary).filter(([, v]) => v !== undefined)) as ErrorSummary;
}

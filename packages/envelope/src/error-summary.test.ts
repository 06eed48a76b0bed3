import { AppError } from './app-error';
import { summarizeError } from './error-summary';

// Shaped as the libraries throw them: axios carries its config (agents, headers), viem a
// multi-line message whose details name the URL, Node a system error with address and port.
function axiosError(): Error {
  const cause = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 });
  return Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
    name: 'AxiosError',
    code: 'ECONNREFUSED',
    config: { baseURL: 'http://127.0.0.1:9', url: '/prices/current/coingecko:bitcoin', httpAgent: { sockets: { a: [1] } } },
    cause,
  });
}

function viemError(): Error {
  return Object.assign(new Error('HTTP request failed.\n\nURL: https://eth.example/v2/SECRETKEY\nRequest body: {"method":"eth_getLogs"}\n\nVersion: viem@2'), {
    name: 'HttpRequestError',
    shortMessage: 'HTTP request failed.',
    url: 'https://eth.example/v2/SECRETKEY',
    status: 503,
  });
}

describe('summarizeError', () => {
  it.each([
    ['an axios error', axiosError(), { message: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED', host: '127.0.0.1:9' }],
    ['a viem error', viemError(), { message: 'HTTP request failed', host: 'eth.example', status: 503 }],
    [
      'an AppError around a viem error',
      new AppError('UPSTREAM_UNAVAILABLE', 'the RPC of ethereum failed', { cause: viemError() }),
      { message: 'the RPC of ethereum failed: HTTP request failed', host: 'eth.example', status: 503 },
    ],
    ['a string', 'boom', { message: 'boom' }],
    ['undefined', undefined, { message: 'unknown error' }],
    ['a JSON-RPC error', Object.assign(new Error('rate limited'), { code: -32005 }), { message: 'rate limited', code: '-32005' }],
  ])('when given %s, then it keeps the first message lines, the code, the host and the status', (_name, err, expected) => {
    expect(summarizeError(err)).toEqual(expected);
  });

  it('when the URL holds a key, then only the host is kept', () => {
    expect(JSON.stringify(summarizeError(viemError()))).not.toContain('SECRETKEY');
  });

  it('when a message is very long, then it is cut at 300 characters', () => {
    expect(summarizeError(new Error('x'.repeat(5000))).message).toHaveLength(300);
  });

  it('when causes form a cycle, then it stops', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(summarizeError(a).message).toBe('a');
  });
});

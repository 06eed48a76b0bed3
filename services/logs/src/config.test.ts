import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('when nothing is set, then the defaults apply and every chain has its public RPC', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 8083, maxBlockRange: 100_000, cacheTtlMs: 30_000, maxRpcCalls: 50, overridden: [] });
    expect(config.rpcUrls.ethereum).toBe('https://ethereum.reth.rs/rpc');
    expect(Object.keys(config.rpcUrls)).toHaveLength(14);
  });

  it('when an RPC is overridden, then it is used and listed for the chain-id check', () => {
    const config = loadConfig({ LOGS_RPC_ETHEREUM: 'http://127.0.0.1:8545', LOGS_RPC_BNB: '' });
    expect(config.rpcUrls.ethereum).toBe('http://127.0.0.1:8545');
    expect(config.rpcUrls.bnb).toBe('https://56.rpc.thirdweb.com');
    expect(config.overridden).toEqual(['ethereum']);
  });

  it.each([
    [{ PORT: 'abc' }, /PORT must be an integer from 0 to 65535/],
    [{ PROXY_SECRET: 'shh' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ PROXY_SECRET: 'change-me-proxy-secret' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ PROXY_SECRET: 'aaaaaaaaaaaaaaaaaaaa' }, /^PROXY_SECRET must be a secret of at least 16 characters that is not a placeholder/],
    [{ LOGS_MAX_BLOCK_RANGE: '0' }, /LOGS_MAX_BLOCK_RANGE/],
    [{ LOGS_RPC_BASE: 'ftp://x' }, /LOGS_RPC_BASE must be an http\(s\) URL/],
  ])('when %j, then one line names the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });
});

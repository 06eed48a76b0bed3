import { clientHeaders } from './forwarded-headers';
import { connectionNamed } from './hop-by-hop';

describe('connectionNamed', () => {
  it.each<[string | string[] | undefined, string[]]>([
    [undefined, []],
    ['close', ['close']],
    ['Keep-Alive, X-Tollgate-Subscription', ['keep-alive', 'x-tollgate-subscription']],
    [['upgrade', ' foo ,, BAR'], ['upgrade', 'foo', 'bar']],
    [' , ', []],
  ])('%p names %p', (value, names) => {
    expect([...connectionNamed(value)]).toEqual(names);
  });
});

describe('a service’s answer headers', () => {
  it('drops every hop-by-hop header and those the Connection header names, keeps the rest', () => {
    const headers = {
      connection: 'x-secret, Keep-Alive',
      'keep-alive': 'timeout=5',
      'x-secret': '1',
      'proxy-authenticate': 'Basic',
      'proxy-connection': 'keep-alive',
      upgrade: 'h2c',
      trailer: 'x-checksum',
      te: 'trailers',
      'transfer-encoding': 'chunked',
      'proxy-authorization': 'Basic x',
      'content-type': 'application/json',
      'x-request-id': 'r1',
    };
    expect(clientHeaders(headers, false, {})).toEqual({ 'content-type': 'application/json', 'x-request-id': 'r1' });
  });
});

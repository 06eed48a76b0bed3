import { clientHeaders, isGatewayCookie, serviceHeaders, withoutGatewayCookies } from './forwarded-headers';

describe('the gateway’s own cookies', () => {
  it('when a cookie is named tg_…, bare or with a __Host-/__Secure- prefix, then it is the gateway’s; no other is', () => {
    const ours = ['tg_session', '__Host-tg_session', '__Secure-tg_csrf', 'tg_'];
    const theirs = ['theme', 'xtg_session', '__Host-theme'];
    expect([...ours, ...theirs].filter(isGatewayCookie)).toEqual(ours);
  });

  it.each([
    ['theme=dark', 'theme=dark'],
    ['tg_session=abc', undefined],
    ['a=1; tg_session=abc;b=2', 'a=1; b=2'],
    [' tg_session=abc ; __Host-tg_x=1', undefined],
    ['flag; tg_session', 'flag'],
  ])('a Cookie of %j goes to a service as %j', (cookie, expected) => {
    expect(withoutGatewayCookies(cookie)).toBe(expected);
  });
});

describe('headers between the client and a service', () => {
  const rules = { keyHeader: 'x-tollgate-key', proxySecret: 'secret-for-the-services', forwardAuthorization: false, trust: () => false };
  it('when the client sends credentials meant for the gateway, then the service gets none of them and the gateway’s own headers', () => {
    const headers = serviceHeaders(rules, { host: 'api.example.test', 'x-tollgate-key': 'tg_x', authorization: 'Bearer t', 'x-csrf-token': 'c', cookie: 'tg_session=s; a=1', 'content-length': '0', accept: 'application/json' }, '10.0.0.7', 'acc_1', 'pro', 'req-1');
    expect(headers).toEqual({
      accept: 'application/json',
      cookie: 'a=1',
      'x-forwarded-for': '10.0.0.7',
      'x-forwarded-host': 'api.example.test',
      'x-tollgate-proxy-secret': 'secret-for-the-services',
      'x-tollgate-user': 'acc_1',
      'x-tollgate-subscription': 'pro',
      'x-request-id': 'req-1',
    });
    expect(serviceHeaders({ ...rules, forwardAuthorization: true }, { authorization: 'Bearer t' }, undefined, 'acc_1', 'pro', 'req-1').authorization).toBe('Bearer t');
    // A playground call says so; a client's own claim of it never reaches the service.
    expect(serviceHeaders(rules, { 'x-tollgate-access': 'playground' }, undefined, 'acc_1', 'pro', 'req-1')['x-tollgate-access']).toBeUndefined();
    expect(serviceHeaders(rules, {}, undefined, 'acc_1', 'free', 'req-1', true)['x-tollgate-access']).toBe('playground');
  });

  it('when a service sets cookies, then the client gets them only where allowed and never the gateway’s; the gateway’s headers win', () => {
    const service = { 'set-cookie': ['tg_session=planted; Path=/', 'theme=dark'], 'x-request-id': 'other', connection: 'keep-alive, x-hop', 'x-hop': '1', 'content-type': 'application/json' };
    expect(clientHeaders(service, false, { 'x-request-id': 'req-1' })).toEqual({ 'content-type': 'application/json', 'x-request-id': 'req-1' });
    expect(clientHeaders(service, true, {})['set-cookie']).toEqual(['theme=dark']);
  });
});

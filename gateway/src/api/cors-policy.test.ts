import { createCorsPolicy } from './cors-policy';

describe('createCorsPolicy', () => {
  it.each<[string[], string | undefined, string | undefined]>([
    [[], 'https://a.example', undefined],
    [['https://a.example'], 'https://a.example', 'https://a.example'],
    [['https://a.example'], 'https://b.example', undefined],
    [['https://a.example'], 'https://a.example.evil', undefined],
    [['https://a.example'], undefined, undefined],
    [['*'], 'https://b.example', '*'],
    [['*'], 'null', '*'],
  ])('origins %p, Origin %p → %p', (origins, origin, allowed) => {
    expect(createCorsPolicy(origins, 'x-tollgate-key').allow(origin)).toBe(allowed);
  });

  it('names the key header and GET/HEAD in a preflight answer', () => {
    expect(createCorsPolicy(['*'], 'x-api-key').preflight('https://a.example')).toMatchObject({
      'Access-Control-Allow-Methods': 'GET, HEAD',
      'Access-Control-Allow-Headers': 'x-api-key, x-request-id',
      Vary: 'Origin',
    });
  });
});

import { errorEnvelope, okEnvelope } from './envelope';

const now = new Date('2026-01-02T03:04:05.000Z');

describe('envelopes', () => {
  it('when data is sent, then the success envelope has the spec shape', () => {
    expect(okEnvelope({ n: 1 }, 'Meta', 'rid', now)).toEqual({
      data: { n: 1 },
      meta: { timestamp: '2026-01-02T03:04:05.000Z', request_id: 'rid' },
      status: 'ok',
      message: 'Meta',
      success: true,
    });
  });

  it('when an error has details, then error.details carries them', () => {
    expect(errorEnvelope('NOT_FOUND', 'no such country', 'rid', { suggestions: ['Japan'] }, now)).toEqual({
      data: null,
      meta: { timestamp: '2026-01-02T03:04:05.000Z', request_id: 'rid' },
      status: 'error',
      message: 'no such country',
      success: false,
      error: { code: 'NOT_FOUND', details: { suggestions: ['Japan'] } },
    });
  });

  it('when an error has no details, then error has only the code', () => {
    expect(errorEnvelope('INTERNAL', 'x', 'rid', undefined, now).error).toEqual({ code: 'INTERNAL' });
  });
});

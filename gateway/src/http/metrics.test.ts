import { createCallCounter, createMetrics } from './metrics';

describe('the calls counter', () => {
  it('when calls are counted between scrapes, then every scrape shows the running totals by api, status and decision', async () => {
    const metrics = createMetrics();
    const token = createCallCounter(metrics, 'token');
    const burger = createCallCounter(metrics, 'burger');
    token(200, 'admitted');
    token(200, 'admitted');
    token(429, 'rate_limited');
    burger(200, 'admitted');
    const first = await metrics.registry.metrics();
    expect(first).toContain('tollgate_gateway_calls_total{api="token",status="200",decision="admitted"} 2');
    expect(first).toContain('tollgate_gateway_calls_total{api="token",status="429",decision="rate_limited"} 1');
    expect(first).toContain('tollgate_gateway_calls_total{api="burger",status="200",decision="admitted"} 1');
    token(200, 'admitted');
    const second = await metrics.registry.metrics();
    expect(second).toContain('tollgate_gateway_calls_total{api="token",status="200",decision="admitted"} 3');
    expect(second).toContain('tollgate_gateway_calls_total{api="token",status="429",decision="rate_limited"} 1');
    expect(await metrics.registry.metrics()).toContain('tollgate_gateway_calls_total{api="token",status="200",decision="admitted"} 3');
  });
});

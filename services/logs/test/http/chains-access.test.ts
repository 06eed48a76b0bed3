import request from 'supertest';
import { validateResponse } from '@tollgate/envelope';
import { CHAINS_ROUTE } from '../../src/routes/info-route-docs.js';
import { buildLogsApp } from '../support/logs-app.js';

// `/v1/chains` says how the gateway admitted the call (issue 40): a key without a logs plan is on
// the playground, with the cheapest plan's features, and is not told it holds that plan.
const { app } = buildLogsApp({ rpcUrls: {} });

async function chains(headers: Record<string, string>) {
  const res = await request(app).get('/v1/chains').set(headers);
  expect(validateResponse(CHAINS_ROUTE, res.status, res.body)).toEqual([]);
  return res.body.data as { plan: string | null; access: string; chains: { slug: string; included: boolean }[] };
}

describe('logs: /v1/chains and the gateway’s admission', () => {
  it('when the gateway admitted the call on the playground, then no plan is claimed, the access says playground, and the chains are the cheapest plan’s', async () => {
    const data = await chains({ 'x-tollgate-subscription': 'free', 'x-tollgate-access': 'playground' });
    expect([data.plan, data.access]).toEqual([null, 'playground']);
    expect(data.chains.filter((c) => c.included).map((c) => c.slug)).toEqual(['ethereum', 'base', 'arbitrum', 'optimism', 'bnb', 'polygon']);
  });

  it('when the gateway admitted the call on a plan, then that plan is named', async () => {
    expect(await chains({ 'x-tollgate-subscription': 'free' })).toMatchObject({ plan: 'free', access: 'plan' });
    expect(await chains({ 'x-tollgate-subscription': 'business' })).toMatchObject({ plan: 'business', access: 'plan' });
  });

  it('when the header holds anything but playground, then it is read as a plan', async () => {
    expect(await chains({ 'x-tollgate-subscription': 'pro', 'x-tollgate-access': 'PLAYGROUND-ish' })).toMatchObject({ plan: 'pro', access: 'plan' });
  });
});

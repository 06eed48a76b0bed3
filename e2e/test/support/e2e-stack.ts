import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { builtInPlanTable } from '../../../gateway/src/config';
import { freePorts } from '@tollgate/envelope/test/processes';
import { startRedisServer } from '../../../gateway/test/support/redis-server';
import { startDemoBilling } from '../../../scripts/stack/demo-billing';
import type { DemoBilling } from '../../../scripts/stack/demo-billing';
import { startDemoUpstreams } from '../../../scripts/stack/demo-upstreams';
import type { DemoUpstreams } from '../../../scripts/stack/demo-upstreams';
import { startStack } from '../../../scripts/stack/start-stack';
import type { Stack } from '../../../scripts/stack/start-stack';

const BUILT_IN_PLANS = builtInPlanTable();

export const ADMIN_TOKEN = 'e2e-admin-token-0123456789';

/** A plan small enough to exhaust in a test: 3 calls a month. */
export const TINY_PLAN = { monthly_quota: 3, rate_per_second: 50, price: 0, currency: 'USD' };

/** The demo stack as the e2e test runs it: real processes, real Redis, local upstreams. */
export interface E2eStack {
  stack: Stack;
  upstreams: DemoUpstreams;
  /** The demo's Stripe stand-in, as `npm start -- --demo` runs it. */
  billing: DemoBilling;
  gateway: string;
  /** Everything the four processes printed, for the failure message. */
  output: () => string;
  stop: () => Promise<Record<string, number | string>>;
}

/** Starts Redis, the demo upstreams and the four processes on free ports, with a plans file holding a tiny burger plan. */
export async function startE2eStack(root: string): Promise<E2eStack> {
  const redis = await startRedisServer();
  const upstreams = await startDemoUpstreams(root).catch(async (err: unknown) => {
    await redis.stop();
    throw err;
  });
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-e2e-'));
  const plansFile = join(dir, 'plans.json');
  const plans = structuredClone(BUILT_IN_PLANS);
  plans.burger!.plans.tiny = TINY_PLAN;
  writeFileSync(plansFile, JSON.stringify(plans));

  let printed = '';
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => (printed += chunk.toString()));
  const [gateway, burger, token, logs] = (await freePorts(4)) as [number, number, number, number];
  const ports = { gateway, burger, token, logs };
  const billing = await startDemoBilling(root, `http://127.0.0.1:${ports.gateway}`).catch(async (err: unknown) => {
    await upstreams.stop();
    await redis.stop();
    throw err;
  });
  const stack = await startStack({
    root,
    ports,
    adminToken: ADMIN_TOKEN,
    outputStream: sink,
    readyTimeoutMs: 60_000,
    env: { gateway: { REDIS_URL: redis.url, PLANS_FILE: plansFile, ...billing.env }, ...upstreams.env },
  }).catch(async (err: unknown) => {
    await billing.stop();
    await upstreams.stop();
    await redis.stop();
    throw new Error(`${(err as Error).message}\n${printed}`);
  });
  let stopped: Promise<Record<string, number | string>> | undefined;
  return {
    stack,
    upstreams,
    billing,
    gateway: stack.urls.gateway,
    output: () => printed,
    stop: () =>
      (stopped ??= (async () => {
        const codes = await stack.stop();
        await billing.stop();
        await upstreams.stop();
        await redis.stop();
        return codes;
      })()),
  };
}

/**
 * Wraps the bodies of a file's tests: when one throws, or is still running when Jest ends it (its
 * time ran out), the lines the stack printed during it go to stderr under the test's name. The
 * cause of a failure in another process (a webhook refused, the store late) is often only there;
 * stripe-local's own lines (each failed delivery) reach this process's stderr as they are said.
 */
export function printStackOnFailure(stack: () => E2eStack | undefined): (body: () => Promise<void>) => () => Promise<void> {
  type Running = { from: number; done: boolean };
  let running: Running | undefined;
  afterEach(async () => {
    const failed = running && !running.done ? running : undefined;
    running = undefined;
    if (!failed) return;
    // The services write their logs in batches, each line at most 250 ms after it was said.
    await new Promise((resolve) => setTimeout(resolve, 500));
    console.error(`[e2e] the stack printed during "${expect.getState().currentTestName}":\n${stack()?.output().slice(failed.from) || '(nothing)'}`);
  });
  return (body) => async () => {
    const test: Running = { from: stack()?.output().length ?? 0, done: false };
    running = test;
    await body();
    test.done = true;
  };
}

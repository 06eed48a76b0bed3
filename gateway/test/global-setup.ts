import { ensureGatewayBuilt } from './support/gateway-build';

/** Builds the gateway's entry points once, before the test files that start them run side by side. */
export default async function globalSetup(): Promise<void> {
  await ensureGatewayBuilt();
}

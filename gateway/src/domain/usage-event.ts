/**
 * What the API path hands the usage stream when a call whose key was identified has finished: one
 * call, one synchronous `push`, nothing allocated by the sink on the way (it copies the fields into
 * columns of its own). Times in ms; `upstreamMs` is -1 when the call never reached the service.
 */
export interface UsageSink {
  push(
    requestId: string,
    accountId: string,
    keyId: string,
    api: string,
    plan: string,
    method: string,
    route: string | null,
    status: number,
    decision: string,
    upstreamMs: number,
    durationMs: number,
    bytes: number,
    atMs: number,
  ): void;
}

/**
 * What the gate tells the quota alerts of a call it admitted (or refused for the quota): `used`
 * calls of the month counted on `plan` after it. Synchronous and cheap: below the account's lowest
 * threshold it only compares two numbers.
 */
export type QuotaObserver = (accountId: string, keyId: string, plan: string, used: number, nowMs: number) => void;

import { lookup } from 'node:dns';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { isLoopbackHost, refusedBlock } from '../domain/private-address';

/** Why an endpoint's address is refused, in a sentence for the person who gave it. */
export class TargetRefusedError extends Error {
  readonly code = 'ETOLLGATE_TARGET';
  constructor(message: string) {
    super(message);
    this.name = 'TargetRefusedError';
  }
}

// Every refusal names the setting that lifts it: a person trying webhooks locally finds it there.
const LIFTED_BY = '(WEBHOOKS_ALLOW_PRIVATE=true on the gateway allows it: for local tries only)';

/** Whether webhooks may reach loopback and private addresses (`WEBHOOKS_ALLOW_PRIVATE`: tests, local use). */
export interface TargetRules {
  allowPrivate: boolean;
}

const resolveAll = (hostname: string): Promise<LookupAddress[]> =>
  new Promise((resolve, reject) => lookup(hostname, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** The first address of `addresses` a webhook may not reach, if any, and the block that refuses it (`Unique-Local, fc00::/7`). */
function refusedAmong(addresses: readonly string[], rules: TargetRules): { address: string; block: string } | undefined {
  if (rules.allowPrivate) return undefined;
  for (const address of addresses) {
    const block = refusedBlock(address);
    if (block) return { address, block: `${block.name}, ${block.block}` };
  }
  return undefined;
}

/**
 * Checks an endpoint URL when it is given: https (plain http only to a loopback name, and only when
 * private addresses are allowed), no credentials in it, and every address its name resolves to a
 * public one unless allowed. Throws a {@link TargetRefusedError} saying what is wrong.
 */
export async function checkEndpointUrl(raw: string, rules: TargetRules): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefusedError('url must be an absolute https:// URL, such as https://hooks.example.com/tollgate');
  }
  const loopback = isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && rules.allowPrivate)) {
    const scheme = url.protocol.replace(':', '');
    if (rules.allowPrivate) throw new TargetRefusedError(`url must use https:// (plain http:// only to this machine, localhost or 127.0.0.1); ${scheme} is not accepted`);
    const local = scheme === 'http' && loopback ? ' (plain http:// to this machine is, on a gateway started with WEBHOOKS_ALLOW_PRIVATE=true: for local tries only)' : '';
    throw new TargetRefusedError(`url must use https://; ${scheme} is not accepted${local}`);
  }
  if (url.username || url.password) throw new TargetRefusedError('url must not carry a user name or password; the signature proves the sender');
  if (url.hash) throw new TargetRefusedError('url must not have a #fragment');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await resolveAll(host)).map((a) => a.address);
  } catch {
    throw new TargetRefusedError(`the host ${url.hostname} could not be resolved; give a name that resolves to a public address`);
  }
  const refused = refusedAmong(addresses, rules);
  if (refused) throw new TargetRefusedError(`the host ${url.hostname} resolves to ${refused.address}, a loopback, private, link-local, metadata or other non-public address (${refused.block}), which webhooks may not reach ${LIFTED_BY}`);
  return url;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for the socket of one attempt: the name is resolved again when it connects (DNS may
 * have changed since the endpoint was made), and a private answer fails the attempt before any
 * byte is sent. An IP literal is checked by {@link checkConnectTarget}, since Node does not look it up.
 */
export function guardedLookup(rules: TargetRules): (hostname: string, options: LookupOptions, callback: LookupCallback) => void {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      const refused = refusedAmong(addresses.map((a) => a.address), rules);
      if (refused) return callback(new TargetRefusedError(`${hostname} resolves to ${refused.address}, which webhooks may not reach (${refused.block}) ${LIFTED_BY}`), '');
      if (options.all) return callback(null, addresses);
      const first = addresses[0]!;
      return callback(null, first.address, first.family);
    });
  };
}

/** Refuses an attempt to an IP literal that is not public (unless allowed). */
export function checkConnectTarget(url: URL, rules: TargetRules): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const refused = isIP(host) ? refusedAmong([host], rules) : undefined;
  if (refused) throw new TargetRefusedError(`${refused.address} is a loopback, private, link-local, metadata or other non-public address (${refused.block}), which webhooks may not reach ${LIFTED_BY}`);
}

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** Options of {@link startWebhookReceiver}. */
export interface ReceiverOptions {
  port?: number;
  host?: string;
  /** The endpoint's signing secret (`whsec_…`, shown once when it is added); without it deliveries are printed unverified. */
  secret?: string;
  /** Where each delivery is written, a line at a time. */
  print: (line: string) => void;
}

/** A running receiver. */
export interface Receiver {
  url: string;
  close(): Promise<void>;
}

const time = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/**
 * A local webhook receiver, as a person trying Tollgate's webhooks runs it: every POST is printed
 * (time, event type, message id, whether its signature checks out with `secret`, the JSON body
 * indented) and answered 204, or 401 when a secret is given and the signature does not check out,
 * so the portal's delivery log shows that too. The signature's timestamp must be within 5 minutes
 * of this machine's clock (Standard Webhooks' tolerance).
 */
export async function startWebhookReceiver(options: ReceiverOptions): Promise<Receiver> {
  const verifier = options.secret ? new Webhook(options.secret) : undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const headers = { 'webhook-id': String(req.headers['webhook-id'] ?? ''), 'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''), 'webhook-signature': String(req.headers['webhook-signature'] ?? '') };
      let verdict = 'not verified: start the receiver with --secret whsec_… (shown once when the endpoint is added)';
      let status = 204;
      if (verifier) {
        try {
          verifier.verify(body, headers);
          verdict = 'signature ok';
        } catch (err) {
          verdict = `signature does not check out (${(err as Error).message}): answered 401`;
          status = 401;
        }
      }
      let shown = body;
      let type = '(not JSON)';
      try {
        const parsed = JSON.parse(body) as { type?: unknown };
        type = typeof parsed.type === 'string' ? parsed.type : '(no type)';
        shown = JSON.stringify(parsed, null, 2);
      } catch {
        // Printed as it came.
      }
      options.print(`${time(Date.now())}  ${req.method} ${req.url}  ${type}  ${headers['webhook-id'] || '(no webhook-id)'}  ${verdict}`);
      for (const line of shown.split('\n')) options.print(`  ${line}`);
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { SMTPServerOptions } from 'smtp-server';
import { eventually } from './eventually';

/** One message the inbox received, decoded enough for tests (no mailparser: headers and the text parts). */
export interface ReceivedMail {
  from: string;
  /** The recipients as smtp-server reads them (it turns an A-label domain back into Unicode). */
  to: string[];
  /** The recipients exactly as the client wrote them in its RCPT TO commands. */
  rcptTo: string[];
  subject: string;
  text: string;
  raw: string;
}

/** A real SMTP server on a loopback port that keeps what it receives. */
export interface SmtpInbox {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  messages: ReceivedMail[];
  /** Messages to one address (any case), oldest first. */
  to(address: string): ReceivedMail[];
  /** How many messages one address has had so far. */
  count(address: string): number;
  /** The newest message to `address` once it has had more than `after`, waiting for it (eventually). */
  next(address: string, after?: number): Promise<ReceivedMail>;
  /** Refuses every message with 451 from now on (or accepts again). */
  refuse(on: boolean): void;
  close(): Promise<void>;
}

function decodePart(encoding: string, body: string): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return Buffer.from(body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
  return body;
}

function headersOf(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

/** Headers (lower-cased names) and the decoded text of a message: its one part, or every text/plain part of a multipart one. */
export function parseMail(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const headers = headersOf(raw.slice(0, split));
  const body = raw.slice(split + 4);
  const boundary = /boundary="?([^";]+)"?/i.exec(headers['content-type'] ?? '')?.[1];
  const parts = boundary ? body.split(`--${boundary}`).slice(1, -1).map((part) => part.replace(/^\r\n/, '')) : [raw];
  const text = parts
    .map((part) => {
      const at = part.indexOf('\r\n\r\n');
      const own = headersOf(part.slice(0, at));
      if (boundary && !/^text\/plain/i.test(own['content-type'] ?? '')) return '';
      return decodePart((own['content-transfer-encoding'] ?? '7bit').toLowerCase(), part.slice(at + 4));
    })
    .join('\n');
  return { headers, text: text.replace(/\r\n/g, '\n') };
}

/** The 6-digit code (on a line of its own) and, when the mail has one, the sign-in link of a sign-in mail (the portal's or the console's). */
export function signInCode(mail: ReceivedMail): { code: string; link?: string } {
  const code = /^ {4}(\d{6})$/m.exec(mail.text)?.[1];
  if (!code) throw new Error(`no code in the mail: ${mail.text}`);
  const link = /^(https?:\/\/\S+\/(?:portal|admin)\/sign-in\?\S+)$/m.exec(mail.text)?.[1];
  return link === undefined ? { code } : { code, link };
}

/** Starts an inbox on a free loopback port (no TLS, no auth). */
export async function startSmtpInbox(): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  let refusing = false;
  // The RCPT TO lines of each connection, read from the server's command log, until its message arrives.
  const rcptLines = new Map<string, string[]>();
  const ignore = (): void => undefined;
  const logger: SMTPServerOptions['logger'] = {
    debug(meta: { tnx?: string; cid?: string; command?: string }, _format: string, line: string) {
      if (meta.tnx !== 'command' || meta.command !== 'RCPT' || meta.cid === undefined) return;
      const address = /^RCPT TO:\s*<([^>]*)>/i.exec(line)?.[1];
      if (address !== undefined) rcptLines.set(meta.cid, [...(rcptLines.get(meta.cid) ?? []), address]);
    },
    info: ignore,
    warn: ignore,
    error: ignore,
    trace: ignore,
    fatal: ignore,
    level: ignore,
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (refusing) {
          callback(Object.assign(new Error('try again later'), { responseCode: 451 }));
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        const { headers, text } = parseMail(raw);
        const rcptTo = rcptLines.get(session.id) ?? [];
        rcptLines.delete(session.id);
        messages.push({ from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '', to: session.envelope.rcptTo.map((r) => r.address), rcptTo, subject: headers.subject ?? '', text, raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  // An address as written (an A-label domain) or as smtp-server reads it.
  const to = (address: string): ReceivedMail[] => messages.filter((m) => [...m.to, ...m.rcptTo].some((t) => t.toLowerCase() === address.toLowerCase()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    to,
    count: (address) => to(address).length,
    async next(address, after = 0) {
      await eventually(async () => to(address).length > after, `a mail to ${address}`);
      return to(address).at(-1) as ReceivedMail;
    },
    refuse: (on) => void (refusing = on),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

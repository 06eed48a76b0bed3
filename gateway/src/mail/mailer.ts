import { createRequire } from 'node:module';
import type nodemailer from 'nodemailer';
import type { Logger } from '@tollgate/envelope';

/** One message to send. */
export interface Mail {
  /** One plain address, exactly as stored (domain/email.ts): it is the envelope's recipient as it is. */
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail; rejects when the message was not accepted for delivery. */
export interface Mailer {
  /** Where mail goes, for the start-up line: `smtp://host:port` (no credentials) or `log`. */
  readonly describe: string;
  send(mail: Mail): Promise<void>;
  close(): void;
}

/** The mail could not be handed to the SMTP server. */
export class MailError extends Error {
  constructor(cause: unknown) {
    super(`the mail could not be sent: ${(cause as Error).message}`, { cause });
    this.name = 'MailError';
  }
}

// A mail server that does not answer must not hold a request for minutes (nodemailer's defaults).
const TIMEOUT_MS = 10_000;

// Loaded when an SMTP mailer is made, not with this module: a process that sends no mail (the CLI,
// a gateway logging its mail) does not load nodemailer's 39 modules.
const loadNodemailer = (): typeof nodemailer => createRequire(__filename)('nodemailer') as typeof nodemailer;

/** Mail through nodemailer over SMTP (`smtp://` or `smtps://`, credentials in the URL). */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const url = new URL(smtpUrl);
  const transport = loadNodemailer().createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  return {
    describe: `${url.protocol}//${url.host}`,
    async send(mail) {
      try {
        // The address as an object: nodemailer takes it as one address and never parses it (a string
        // could be read as a display name, a list or a group). The caller has checked it (domain/email.ts).
        await transport.sendMail({ from, ...mail, to: { name: '', address: mail.to } });
      } catch (err) {
        throw new MailError(err);
      }
    },
    close: () => transport.close(),
  };
}

/**
 * No SMTP configured: each mail is one info line in the gateway's log (to, subject, text), so a
 * local try can read its sign-in code there. Not for production: the codes are in the log.
 */
export function createLogMailer(logger: Logger, from: string): Mailer {
  return {
    describe: 'log',
    async send(mail) {
      logger.info({ mail: { from, to: mail.to, subject: mail.subject, text: mail.text } }, `mail to ${mail.to} written here (no SMTP_URL): ${mail.subject}`);
    },
    close: () => undefined,
  };
}

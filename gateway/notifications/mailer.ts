/**
 * How the service sends email to merchants (DESIGN "Contracts": `SMTP_URL`). With `SMTP_URL` set
 * (`smtp://user:pass@host:587`, `smtps://user:pass@host:465`) mail goes out through nodemailer's SMTP
 * transport; without it the `log` mailer writes each message to the log instead, and the outbox
 * table (`merchant_emails`) keeps it as `logged`. The SMTP URL may hold a password: it is never
 * logged nor put in an error message.
 */
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import { type Config, ConfigError } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text. */
  text: string;
}

export interface Mailer {
  /** `smtp`: really sent; `log`: only written to the log (no `SMTP_URL`). */
  readonly kind: 'smtp' | 'log';
  /** Resolves once the SMTP server accepted the message (or it was logged); rejects otherwise. */
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Connecting, the server's greeting, and silence on an open connection: each gives up after this. */
const SMTP_STEP_TIMEOUT_MS = 10_000;
/** One message, from connecting to the server's final answer, never takes longer than this. */
const SMTP_SEND_DEADLINE_MS = 30_000;

export function createMailer(config: Config, logger: Logger): Mailer {
  if (config.smtpUrl === undefined) return logMailer(logger);
  return smtpMailer(config.smtpUrl, fromAddress(config.publicUrl));
}

/** `Payment Gateway <no-reply@HOST>`, HOST being the host name the service is reached at. */
export function fromAddress(publicUrl: string): string {
  return `Payment Gateway <no-reply@${new URL(publicUrl).hostname}>`;
}

function logMailer(logger: Logger): Mailer {
  return {
    kind: 'log',
    async send(message) {
      logger.info(
        { to: message.to, subject: message.subject, text: message.text },
        'email not sent (SMTP_URL is not set): written to the log',
      );
    },
    close() {},
  };
}

function smtpMailer(smtpUrl: string, from: string): Mailer {
  let protocol: string;
  try {
    protocol = new URL(smtpUrl).protocol;
  } catch {
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') {
    throw new ConfigError(`SMTP_URL must be an smtp:// or smtps:// URL (got ${protocol}//...)`);
  }
  // `smtps://` connects with TLS at once (port 465 by default); `smtp://` upgrades with STARTTLS
  // when the server offers it. Options the URL sets (host, port, auth, secure) win over these.
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_STEP_TIMEOUT_MS,
    greetingTimeout: SMTP_STEP_TIMEOUT_MS,
    socketTimeout: SMTP_STEP_TIMEOUT_MS,
    dnsTimeout: SMTP_STEP_TIMEOUT_MS,
    logger: false,
    debug: false,
  });
  return {
    kind: 'smtp',
    async send(message) {
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        signal: AbortSignal.timeout(SMTP_SEND_DEADLINE_MS),
      });
    },
    close() {
      transport.close();
    },
  };
}

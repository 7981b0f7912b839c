/**
 * Structured JSON logs (pino). Credentials are redacted wherever they could appear.
 */
import pino, { type Logger } from 'pino';

export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-service-key"]',
  'req.headers["x-service-connect"]',
  'headers.authorization',
  'headers["x-service-key"]',
  'headers["x-service-connect"]',
  'key',
  'secret',
  'webhook_secret',
  'card_number',
];

/**
 * Lines go to stdout through an asynchronous, buffered writer so that logging never blocks a
 * request; `logger.flush()` (called when the gateway closes) writes out what is buffered.
 */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined },
    destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }),
  );
}

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

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined }, destination);
}

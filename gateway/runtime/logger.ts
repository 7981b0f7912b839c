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
 * Where log lines go unless a destination is given: stdout (`dest: 1`), or stderr (`dest: 2`) for a
 * command whose stdout is its answer (`--json`).
 *
 * Written asynchronously, so that logging never blocks a request, and at once: `minLength: 0` starts
 * a write as soon as a line arrives (lines that arrive during a write go out together right after
 * it), so an operator watching the log sees a warning when it happens, not when 4 KB have piled up or
 * the service stops. `logger.flush()` (called when a service closes) writes out what is left.
 */
export function logDestination(dest: 1 | 2 = 1): pino.DestinationStream {
  return pino.destination({ dest, sync: false, minLength: 0 });
}

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: undefined },
    destination ?? logDestination(1),
  );
}

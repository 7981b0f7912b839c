/**
 * The command line's options, one table for every command (a flag means the same everywhere), and
 * the checks commands make of them before anything is opened. A wrong command line is a
 * `UsageError`: exit code 2 with the command's usage.
 */
import { parseArgs } from 'node:util';

export const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  name: { type: 'string' },
  email: { type: 'string' },
  domain: { type: 'string', multiple: true },
  'verify-domains': { type: 'boolean' },
  'verify-business': { type: 'boolean' },
  unlimited: { type: 'boolean' },
  merchant: { type: 'string' },
  environment: { type: 'string' },
  access: { type: 'string' },
  host: { type: 'string' },
  verified: { type: 'boolean' },
  'webhook-url': { type: 'string' },
  event: { type: 'string' },
  processor: { type: 'string' },
  config: { type: 'string' },
  'per-minute': { type: 'string' },
  'key-id': { type: 'string' },
  default: { type: 'boolean' },
  reference: { type: 'string' },
  platform: { type: 'string' },
  id: { type: 'string' },
  'expires-in-days': { type: 'string' },
  position: { type: 'string' },
  'max-amount': { type: 'string' },
  velocity: { type: 'string' },
  'velocity-window-minutes': { type: 'string' },
  'no-velocity': { type: 'boolean' },
  'default-velocity': { type: 'boolean' },
  currency: { type: 'string' },
  rate: { type: 'string' },
  system: { type: 'string' },
  test: { type: 'boolean' },
  receipt: { type: 'string' },
  'fiscal-id': { type: 'string' },
  'not-issued': { type: 'boolean' },
  status: { type: 'string' },
  limit: { type: 'string' },
  method: { type: 'string' },
  reason: { type: 'string' },
  'forward-to': { type: 'string' },
  'api-key': { type: 'string' },
  pending: { type: 'boolean' },
  out: { type: 'string' },
} as const;

type Parsed = ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;

/** The options given, by name. */
export type Values = Parsed['values'];

/** The command's words and the options; throws parseArgs' own error for an unknown or malformed option. */
export function parseCommandLine(argv: readonly string[]): { values: Values; positionals: string[] } {
  return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
}

export class UsageError extends Error {
  override name = 'UsageError';
}

/** The options that take a single text value. */
type TextOption = {
  [K in keyof typeof OPTIONS]: (typeof OPTIONS)[K] extends { type: 'string'; multiple: true }
    ? never
    : (typeof OPTIONS)[K] extends { type: 'string' }
      ? K
      : never;
}[keyof typeof OPTIONS];

/** The value of `--name`, refused when absent or empty. */
export function required(values: Values, name: TextOption): string {
  const value = values[name];
  if (value === undefined || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

export function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  }
  return value as T;
}

/** A whole number from `min` to `max` given as `--flag`, or undefined when the flag is absent. */
export function wholeNumber(values: Values, flag: TextOption, min: number, max: number): number | undefined {
  const raw = values[flag];
  if (raw === undefined) return undefined;
  if (!/^\d{1,16}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new UsageError(`--${flag} must be a whole number from ${min} to ${max}`);
  }
  return Number(raw);
}

/**
 * Settings a merchant gives for a remote system as JSON (a processor's `--config`, a fiscal
 * system's): validated by the system's zod schema, with messages that name fields and never the
 * values given (a value may be a secret key), and kept sealed with the service secret, bound to
 * the row they belong to.
 */
import type { z } from 'zod';
import type { Sealer } from './sealing.js';

/** Settings that do not pass the schema. The message names fields, never their values. */
export class InvalidSettings extends Error {
  override readonly name: string = 'InvalidSettings';
}

/** Validates `text` (JSON) against `schema`; answers the normalised settings as JSON. `label` names the system. */
export function parseSettingsJson(schema: z.ZodType, label: string, text: string): string {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new InvalidSettings('--config must be JSON');
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const field = issue.path.join('.');
      // zod's messages name expectations ("expected string"), not the value received.
      return field === '' ? issue.message : `${field}: ${issue.message}`;
    });
    throw new InvalidSettings(`--config for ${label}: ${problems.join('; ')}`);
  }
  return JSON.stringify(parsed.data);
}

/**
 * Opens sealed settings and validates them again (a schema may have tightened since); answers
 * null when they do not open with this secret or no longer pass.
 */
export function openSettingsJson<C>(sealer: Sealer, sealed: string, context: string, schema: z.ZodType<C>): C | null {
  let json: string;
  try {
    json = sealer.open(sealed, context);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(JSON.parse(json));
  return parsed.success ? parsed.data : null;
}

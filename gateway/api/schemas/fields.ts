/**
 * Field rules shared by request schemas. Messages are written for the integrator reading the 422.
 */
import { z } from 'zod';
import { hostOfUrl, normalizeHost } from '../../domain/hosts.js';

/** C0 controls and DEL: never part of an identifier or URL (PostgreSQL text cannot even hold NUL). */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** A UTF-16 surrogate without its pair: not Unicode text, and stored as U+FFFD by both databases. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The rules every text the API takes follows, whatever else its field requires: no control
 * characters, and Unicode text (no lone surrogate), so what is stored is what was sent. A field
 * with a form of its own (a URL, an email address) names that form for control characters.
 */
export function textRules(
  schema: z.ZodString,
  controlCharsMessage = 'must not contain control characters',
): z.ZodString {
  return schema
    .refine((s) => !CONTROL_CHARS.test(s), { error: controlCharsMessage })
    .refine((s) => !LONE_SURROGATE.test(s), { error: 'must be valid Unicode text' });
}

function typeMessage(expected: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : `must be ${expected}`);
}

/** A string of 1..max characters of text. */
export function text(max: number) {
  return textRules(
    z
      .string({ error: typeMessage('a string') })
      .min(1, { error: 'must not be empty' })
      .max(max, { error: `must be at most ${max} characters` }),
  );
}

/**
 * A string of at most `max` characters of text, or null; absent, null and the empty string all
 * mean "none" (platforms send empty fields).
 */
export function optionalText(max: number, expected = 'a string or null') {
  return textRules(z.string({ error: `must be ${expected}` }).max(max, { error: `must be at most ${max} characters` }))
    .nullish()
    .transform((s) => (s === undefined || s === null || s === '' ? null : s));
}

/** An absolute http(s) URL of at most 2048 characters. */
export function httpUrl() {
  const form = 'must be an absolute http or https URL';
  return textRules(
    z.string({ error: typeMessage('a URL string') }).max(2048, { error: 'must be at most 2048 characters' }),
    form,
  ).refine((s) => hostOfUrl(s) !== null, { error: form });
}

/** An email address of at most 254 characters, `local@domain.tld` form. */
export function emailAddress() {
  const form = 'must be an email address';
  return textRules(
    z
      .string({ error: typeMessage('an email address') })
      .max(254, { error: 'must be at most 254 characters' })
      .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, { error: form }),
    form,
  );
}

/** A whole number of a currency's units (no minor units), at least 1. */
export function wholeUnits(currency: string) {
  return z
    .number({ error: typeMessage(`an integer (whole ${currency})`) })
    .int({ error: `must be a whole number of ${currency} (no minor units)` })
    .min(1, { error: 'must be at least 1' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' });
}

export function hostName() {
  const form = 'must be a domain name such as shop.example.am';
  return textRules(
    z.string({ error: typeMessage('a domain name') }).max(253, { error: 'must be at most 253 characters' }),
    form,
  ).refine((s) => normalizeHost(s) !== null, { error: form });
}

/** Optional field: absent and null both mean "not given". */
export function optional<S extends z.ZodType>(schema: S) {
  return schema.nullish().transform((v) => (v === null ? undefined : v));
}

/** A positive integer query parameter, read from its string: `name` must be between 1 and `max`. */
function positiveIntegerParam(max: number, name: string) {
  return z
    .string()
    .regex(/^\d+$/, { error: 'must be an integer' })
    .transform(Number)
    .refine((n) => n >= 1 && n <= max, { error: `${name} must be between 1 and ${max}` });
}

/** `per_page` (1 to 100, default 25) and `page` (from 1): the paging of every list shaped like the payment list. */
export function pageParams(items: string) {
  return {
    per_page: positiveIntegerParam(100, 'per_page').default(25).describe(`${items} per page, 1 to 100.`),
    page: positiveIntegerParam(1_000_000, 'page').default(1).describe('The page, from 1.'),
  };
}

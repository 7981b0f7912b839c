/**
 * Field rules shared by request schemas. Messages are written for the integrator reading the 422.
 */
import { z } from 'zod';
import { hostOfUrl, normalizeHost } from '../../domain/hosts.js';

/** C0 controls and DEL: never part of an identifier or URL (PostgreSQL text cannot even hold NUL). */
export const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
/** A UTF-16 surrogate without its pair: not Unicode text, and stored as U+FFFD by both databases. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function typeMessage(expected: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? 'is required' : `must be ${expected}`);
}

/** A string of 1..max characters without control characters. */
export function text(max: number) {
  return z
    .string({ error: typeMessage('a string') })
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((s) => !CONTROL_CHARS.test(s), { error: 'must not contain control characters' })
    .refine((s) => !LONE_SURROGATE.test(s), { error: 'must be valid Unicode text' });
}

/** An absolute http(s) URL of at most 2048 characters. */
export function httpUrl() {
  return z
    .string({ error: typeMessage('a URL string') })
    .max(2048, { error: 'must be at most 2048 characters' })
    .refine((s) => !CONTROL_CHARS.test(s) && hostOfUrl(s) !== null, { error: 'must be an absolute http or https URL' });
}

/** A whole number of AMD, at least 1. */
export function wholeAmd() {
  return z
    .number({ error: typeMessage('an integer (whole AMD)') })
    .int({ error: 'must be a whole number of AMD (no minor units)' })
    .min(1, { error: 'must be at least 1' })
    .max(Number.MAX_SAFE_INTEGER, { error: 'is too large' });
}

export function hostName() {
  return z
    .string({ error: typeMessage('a domain name') })
    .max(253, { error: 'must be at most 253 characters' })
    .refine((s) => normalizeHost(s) !== null, { error: 'must be a domain name such as shop.example.am' });
}

/** Optional field: absent and null both mean "not given". */
export function optional<S extends z.ZodType>(schema: S) {
  return schema.nullish().transform((v) => (v === null ? undefined : v));
}

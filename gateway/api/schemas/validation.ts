/**
 * Turns a zod failure into the `errors` object of a 422: `{ field: [message, ...] }`, fields named
 * as the client sent them.
 */
import type { z } from 'zod';
import { type FieldErrors, validationFailed } from '../../domain/errors.js';

export function fieldErrorsOf(error: z.ZodError, root = 'body'): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = issue.path.length === 0 ? root : issue.path.map(String).join('.');
    const list = errors[field] ?? [];
    if (!list.includes(issue.message)) list.push(issue.message);
    errors[field] = list;
  }
  return errors;
}

export function parseOr422<S extends z.ZodType>(schema: S, input: unknown, root?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw validationFailed(fieldErrorsOf(result.error, root));
  return result.data;
}

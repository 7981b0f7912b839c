/**
 * Turns a zod failure into the `errors` object of a 422: `{ field: [message, ...] }`, fields named
 * as the client sent them. A field the request does not have (a request body is a strict object, so
 * a typo such as `callbak_url` is not silently dropped) is named itself: `{ "callbak_url": ["is not
 * a field of this request"] }`.
 */
import type { z } from 'zod';
import { type FieldErrors, UNKNOWN_FIELD, validationFailed } from '../../domain/errors.js';

export { UNKNOWN_FIELD };

export function fieldErrorsOf(error: z.ZodError, root = 'body'): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const field = [...issue.path.map(String), key].join('.');
        errors[field] = [...(errors[field] ?? []), UNKNOWN_FIELD];
      }
      continue;
    }
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

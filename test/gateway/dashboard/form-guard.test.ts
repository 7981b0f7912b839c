import { describe, expect, it } from 'vitest';
import { formToken, formTokenMatches } from '../../../gateway/dashboard/form-guard.js';

const SECRET = 'test-secret-test-secret-test-secret-0123';

describe('dashboard form tokens', () => {
  it('accepts the token of one of the browser bindings only', () => {
    const token = formToken(SECRET, 'session-id');
    expect(formTokenMatches(SECRET, token, [undefined, 'session-id'])).toBe(true);
    expect(formTokenMatches(SECRET, token, ['other-session', 'form-cookie'])).toBe(false);
    expect(formTokenMatches('another-secret-another-secret-0123', token, ['session-id'])).toBe(false);
    expect(formTokenMatches(SECRET, undefined, ['session-id'])).toBe(false);
    expect(formTokenMatches(SECRET, '', ['session-id'])).toBe(false);
    expect(formTokenMatches(SECRET, formToken(SECRET, ''), [''])).toBe(false);
  });
});

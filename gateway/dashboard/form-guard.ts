/**
 * Form tokens of the dashboard against cross-site posts (a synchronizer token without server
 * state): HMAC-SHA256(service secret, `dashboard-form|<binding>`), where the binding is the
 * browser's session id when signed in, else a random "form" cookie given to a signed-out browser.
 * Both cookies are HttpOnly and SameSite=Lax, so another site can neither read nor set them, and
 * cannot compute the token. Every state-changing route checks it before reading anything else.
 */
import { createHmac } from 'node:crypto';
import { safeEqual } from '../runtime/hashing.js';

export function formToken(secret: string, binding: string): string {
  return createHmac('sha256', secret).update(`dashboard-form|${binding}`).digest('base64url');
}

/** Whether `given` is the token of one of the browser's bindings (its session id, its form cookie). */
export function formTokenMatches(
  secret: string,
  given: string | undefined,
  bindings: ReadonlyArray<string | undefined>,
): boolean {
  if (given === undefined || given === '') return false;
  let matched = false;
  for (const binding of bindings) {
    if (binding !== undefined && binding !== '' && safeEqual(formToken(secret, binding), given)) matched = true;
  }
  return matched;
}

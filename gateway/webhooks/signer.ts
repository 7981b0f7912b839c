/**
 * The signature headers of a delivery (spec "Authentication" 8; DESIGN "Webhooks"):
 * - `X-Service-Signature`: lowercase hex HMAC-SHA256 of the raw body under the domain's secret;
 * - `X-Service-Signature-Next`: the same under the next secret, during a rotation;
 * - the Standard Webhooks headers, as an addition: `webhook-id` (the delivery id),
 *   `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`
 *   (`v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per active secret, keyed with the base64
 *   decoded part of the secret after `whsec_`), so receivers may use any Standard Webhooks library.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';
export const SIGNATURE_NEXT_HEADER = 'X-Service-Signature-Next';

export function signBody(body: string | Buffer, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** The HMAC key Standard Webhooks derives from a `whsec_<base64>` secret. */
function standardKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64');
}

export function standardSignature(id: string, timestampSeconds: number, body: string, secret: string): string {
  const mac = createHmac('sha256', standardKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * Every header that authenticates one attempt. `secrets` is `[current]` or `[current, next]`
 * (see ./secrets.ts).
 */
export function signatureHeaders(
  deliveryId: string,
  timestampSeconds: number,
  body: string,
  secrets: readonly [string] | readonly [string, string],
): Record<string, string> {
  const [current, next] = secrets;
  const headers: Record<string, string> = {
    [SIGNATURE_HEADER]: signBody(body, current),
    'webhook-id': deliveryId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets.map((s) => standardSignature(deliveryId, timestampSeconds, body, s)).join(' '),
  };
  if (next !== undefined) headers[SIGNATURE_NEXT_HEADER] = signBody(body, next);
  return headers;
}

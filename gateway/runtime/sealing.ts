/**
 * Secrets at rest: what a service must use again later (the gateway's webhook signing secrets; the
 * connector's connect tokens and platform API credentials) is kept encrypted with AES-256-GCM. The
 * key is derived with HKDF-SHA256 from the service secret (`GATEWAY_SECRET`, which never lives in the
 * database: see ./service-secret.ts), one key per service, so a copy of a database alone reveals
 * nothing and cannot be used to forge anything. Each value is bound to the row (and where it matters
 * the column) it belongs to, as additional authenticated data, so a ciphertext copied into another
 * row does not decrypt.
 *
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

/** Which service's key: each derives its own from the service secret. */
export type SealingPurpose = 'gateway' | 'connector';

export interface Sealer {
  seal(plaintext: string, context: string): string;
  /** Throws when the value was not sealed with this key and context (tampered, or another row's). */
  open(sealed: string, context: string): string;
}

/** Whether a stored value has the sealed format (it may still fail to open). */
export function isSealed(value: string): boolean {
  return value.startsWith(`${VERSION}.`);
}

export function createSealer(secret: string, purpose: SealingPurpose): Sealer {
  if (secret.length < 16) throw new Error('the sealing secret must be at least 16 characters');
  const key = Buffer.from(hkdfSync('sha256', secret, `armenian-gateway-${purpose}`, `${purpose}-sealing:v1`, 32));
  return {
    seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, ciphertext, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 4 || parts[0] !== VERSION) throw new Error('not a sealed value');
      const [iv, ciphertext, tag] = parts.slice(1).map((part) => Buffer.from(part, 'base64url')) as [
        Buffer,
        Buffer,
        Buffer,
      ];
      const decipher = createDecipheriv('aes-256-gcm', key, iv);
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    },
  };
}

/** A random one-time value, URL safe. */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Secrets at rest: the connect tokens and the platforms' API credentials the connector must use
 * later are kept encrypted with AES-256-GCM. The key is derived with HKDF-SHA256 from
 * `GATEWAY_SECRET`, so a copy of the database alone reveals nothing. Each value is bound to the row
 * and column it belongs to (additional authenticated data), so a ciphertext copied into another
 * connection's row does not decrypt.
 *
 * Format: `v1.<iv>.<ciphertext>.<tag>`, each part base64url.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;

export interface Sealer {
  seal(plaintext: string, context: string): string;
  /** Throws when the value was not sealed with this key and context (tampered, or another row's). */
  open(sealed: string, context: string): string;
}

export function createSealer(secret: string): Sealer {
  if (secret.length < 16) throw new Error('the sealing secret must be at least 16 characters');
  const key = Buffer.from(hkdfSync('sha256', secret, 'armenian-gateway-connector', 'connector-sealing:v1', 32));
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

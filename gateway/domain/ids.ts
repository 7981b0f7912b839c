/**
 * Identifier generation is injected like the clock. Record ids are UUIDv7: time-ordered, so new
 * rows land at the end of the primary-key index even at millions of rows.
 */
export interface IdGenerator {
  /** A UUIDv7 for a record created at `ms`. */
  uuid(ms: number): string;
  /** `bytes` bytes of cryptographic randomness, base64url (for keys, tokens and secrets). */
  token(bytes: number): string;
}

const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/** Lays out a UUIDv7 from a millisecond timestamp and 10 random bytes. */
export function formatUuidV7(ms: number, random: Uint8Array): string {
  if (random.length < 10) throw new RangeError('UUIDv7 needs 10 random bytes');
  const bytes = new Uint8Array(16);
  let t = Math.floor(ms);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes[6] = 0x70 | ((random[0] as number) & 0x0f);
  bytes[7] = random[1] as number;
  bytes[8] = 0x80 | ((random[2] as number) & 0x3f);
  for (let i = 9; i < 16; i++) bytes[i] = random[i - 6] as number;
  let hex = '';
  for (const byte of bytes) hex += HEX[byte] as string;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

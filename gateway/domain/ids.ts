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

/** Lays out a UUIDv7 from a millisecond timestamp, a 12-bit sequence and 8 random bytes. */
function layoutUuidV7(ms: number, sequence: number, random: Uint8Array): string {
  const bytes = new Uint8Array(16);
  let t = Math.floor(ms);
  for (let i = 5; i >= 0; i--) {
    bytes[i] = t % 256;
    t = Math.floor(t / 256);
  }
  bytes[6] = 0x70 | ((sequence >> 8) & 0x0f);
  bytes[7] = sequence & 0xff;
  bytes[8] = 0x80 | ((random[2] as number) & 0x3f);
  for (let i = 9; i < 16; i++) bytes[i] = random[i - 6] as number;
  let hex = '';
  for (const byte of bytes) hex += HEX[byte] as string;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * UUIDv7s that sort in the order they were made, even within one millisecond (RFC 9562, method 1:
 * a 12-bit counter in `rand_a`, started at a random point in its lower half). A clock that moves
 * back keeps the last millisecond; a full counter moves on to the next millisecond. Rows ordered
 * by (time, id), such as a payment's events, therefore keep the order they were written in.
 */
export class UuidV7Sequence {
  #lastMs = -1;
  #counter = 0;

  next(ms: number, random: Uint8Array): string {
    if (random.length < 10) throw new RangeError('UUIDv7 needs 10 random bytes');
    let at = Math.floor(ms);
    if (at <= this.#lastMs) {
      at = this.#lastMs;
      this.#counter += 1;
      if (this.#counter > 0xfff) {
        at += 1;
        this.#counter = 0;
      }
    } else {
      this.#counter = (((random[0] as number) & 0x07) << 8) | (random[1] as number);
    }
    this.#lastMs = at;
    return layoutUuidV7(at, this.#counter, random);
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * Locked-rate conversion into AMD (docs/decisions.md, "Currencies"). A rate is AMD per one whole
 * unit of the other currency, a decimal with at most 6 places, kept as text and computed on exactly
 * (integers scaled by 10^6), never with binary floating point. The AMD amount is rounded down: the
 * buyer is never charged more than the exact conversion.
 */
import { toApiInstant } from './clock.js';

export const BASE_CURRENCY = 'AMD';
/** ISO 4217 form: three letters (upper case once normalised). */
export const CURRENCY_CODE = /^[A-Z]{3}$/;
export const FX_RATE_DECIMALS = 6;
/** Rates are below this (AMD per unit): nine integer digits and six decimals stay exact as a JSON number. */
export const FX_RATE_LIMIT = 1_000_000_000;

const SCALE = 10n ** BigInt(FX_RATE_DECIMALS);
const RATE_FORM = new RegExp(`^(\\d{1,9})(?:\\.(\\d{1,${FX_RATE_DECIMALS}}))?$`);

/** A rate as the operator typed it (`387.5`, `0.0094`), in canonical form (`387.5`); null when it is not one. */
export function parseFxRate(input: string): string | null {
  const match = RATE_FORM.exec(input.trim());
  if (match === null) return null;
  const whole = BigInt(match[1] ?? '0');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (whole === 0n && fraction === '') return null;
  return fraction === '' ? whole.toString() : `${whole.toString()}.${fraction}`;
}

function rateInMillionths(rate: string): bigint {
  const [whole = '0', fraction = ''] = rate.split('.');
  return BigInt(whole) * SCALE + BigInt(fraction.padEnd(FX_RATE_DECIMALS, '0'));
}

/** `amount` whole units at `rate` AMD each, in whole AMD, rounded down. */
export function convertToAmd(amount: number, rate: string): bigint {
  return (BigInt(amount) * rateInMillionths(rate)) / SCALE;
}

/** The API's `charge` of a converted payment: the AMD really charged and the rate locked into it. */
export interface Charge {
  readonly amount: number;
  readonly currency: typeof BASE_CURRENCY;
  /** AMD per one unit of the payment's `currency`, as a JSON number (exact: at most 15 digits). */
  readonly fx_rate: number;
  /** When the rate was locked: the payment's creation, ISO 8601 with offset. */
  readonly locked_at: string;
}

export function lockedCharge(amd: number, rate: string, lockedAtStored: string): Charge {
  return {
    amount: amd,
    currency: BASE_CURRENCY,
    fx_rate: Number(rate),
    locked_at: toApiInstant(lockedAtStored) as string,
  };
}

/**
 * Exchange rates (docs/decisions.md, "Currencies"): the operator sets the AMD rate of a currency
 * (`gateway fx set`), and a payment priced in that currency locks the rate in force when it is
 * created. Every setting is kept with the time it was set; the newest one of a currency is in force.
 */

import type { Executor } from '../../storage/database.js';
import {
  findLatestFxRate,
  insertFxRate,
  listFxRateHistory,
  listLatestFxRates,
} from '../../storage/fx-rate.repository.js';
import type { FxRateRow } from '../../storage/fx-rate.table.js';
import { toStoredInstant } from '../domain/clock.js';
import { BASE_CURRENCY, CURRENCY_CODE, FX_RATE_DECIMALS, parseFxRate } from '../domain/fx.js';
import { OperatorError } from '../merchants/operator.js';
import type { Deps } from '../runtime/deps.js';

export interface FxRateView {
  currency: string;
  /** AMD per one unit of `currency`; null when the currency was withdrawn. */
  rate: number | null;
  set_at: string;
}

function toView(row: FxRateRow): FxRateView {
  return { currency: row.currency, rate: row.rate === null ? null : Number(row.rate), set_at: row.set_at };
}

function currencyCode(input: string): string {
  const code = input.trim().toUpperCase();
  if (!CURRENCY_CODE.test(code)) throw new OperatorError(`--currency "${input}" is not a three-letter currency code`);
  if (code === BASE_CURRENCY) throw new OperatorError('AMD is the base currency: it needs no rate');
  return code;
}

/** The rate in force for `currency` (canonical decimal text), or null when none is. */
export async function rateInForce(db: Executor, currency: string): Promise<string | null> {
  return (await findLatestFxRate(db, currency))?.rate ?? null;
}

/** The currencies with a rate in force, by code. */
export async function currenciesWithRate(db: Executor): Promise<string[]> {
  return (await listLatestFxRates(db)).filter((row) => row.rate !== null).map((row) => row.currency);
}

/** Sets the rate of `currency` from now on: AMD per one whole unit, above 0, at most 6 decimals. */
export async function setFxRate(deps: Deps, input: { currency: string; rate: string }): Promise<FxRateView> {
  const currency = currencyCode(input.currency);
  const rate = parseFxRate(input.rate);
  if (rate === null) {
    throw new OperatorError(
      `--rate "${input.rate}" is not a rate: AMD per one ${currency}, above 0, below 1000000000, at most ${FX_RATE_DECIMALS} decimals`,
    );
  }
  const nowMs = deps.clock.nowMs();
  const row = { id: deps.ids.uuid(nowMs), currency, rate, set_at: toStoredInstant(nowMs) };
  await insertFxRate(deps.db, row);
  return toView(row);
}

/** Withdraws `currency`: payments in it are refused from now on (payments already created keep their rate). */
export async function removeFxRate(deps: Deps, input: { currency: string }): Promise<FxRateView> {
  const currency = currencyCode(input.currency);
  if ((await rateInForce(deps.db, currency)) === null) throw new OperatorError(`${currency} has no rate in force`);
  const nowMs = deps.clock.nowMs();
  const row = { id: deps.ids.uuid(nowMs), currency, rate: null, set_at: toStoredInstant(nowMs) };
  await insertFxRate(deps.db, row);
  return toView(row);
}

/** The rates in force (by currency); with `currency`, every setting of that currency, newest first. */
export async function listFxRates(
  deps: Deps,
  input: { currency?: string | undefined } = {},
): Promise<{ fx_rates: FxRateView[] }> {
  if (input.currency !== undefined) {
    return { fx_rates: (await listFxRateHistory(deps.db, currencyCode(input.currency))).map(toView) };
  }
  return { fx_rates: (await listLatestFxRates(deps.db)).filter((row) => row.rate !== null).map(toView) };
}

import type { Insertable, Selectable } from 'kysely';

/**
 * Exchange rates the operator set (`gateway fx set`), one row per setting: the history is kept, the
 * newest row of a currency is the rate in force. A payment locks the rate in force into its `charge`.
 */
export interface FxRateTable {
  id: string;
  /** ISO 4217 code in upper case, never `AMD`. */
  currency: string;
  /** AMD per one whole unit of `currency`, a canonical decimal (`387.5`); null: the currency was withdrawn. */
  rate: string | null;
  set_at: string;
}

export type FxRateRow = Selectable<FxRateTable>;
export type NewFxRateRow = Insertable<FxRateTable>;

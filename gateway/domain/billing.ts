/**
 * The service's own billing rules (spec "Billing", "Price entry", "Balance entry"), pure: what
 * costs a unit, what the price list says, and how a balance reads against the grace floor.
 */
/** The service's own prices and counting rules (spec "Billing"; defaults in docs/decisions.md). */
export interface BillingConfig {
  /** AMD per completed live payment at or above `freeBelowAmd`. */
  readonly transactionPriceAmd: number;
  /** AMD per fiscal receipt not linked to a payment of the service. */
  readonly receiptPriceAmd: number;
  /** Live payments with an amount under this many AMD consume nothing. */
  readonly freeBelowAmd: number;
  /** Units a balance may go below zero before new live payments are refused (reported negative). */
  readonly graceUnits: number;
  /** Units of each counter a new account starts with. */
  readonly signupGrant: number;
  /** Smallest purchase (and auto top-up refill) quantity. */
  readonly minPurchase: number;
  /** Quantities payable by card through a checkout; any other quantity is a bank transfer. */
  readonly presetQuantities: readonly number[];
  /**
   * The house account's bank details shown with a bank-transfer purchase, one line each
   * (`GATEWAY_BANK_TRANSFER_DETAILS`, lines separated by `|`); empty: not configured.
   */
  readonly bankTransferDetails: readonly string[];
}

export const COUNTERS = ['transactions', 'receipts'] as const;
export type Counter = (typeof COUNTERS)[number];

export function isCounter(value: unknown): value is Counter {
  return value === 'transactions' || value === 'receipts';
}

/** The fixed phrase of the spec for receipts. */
export const RECEIPTS_FREE_WHEN = 'the receipt is linked to a payment made through the service';

export interface PriceEntry {
  counter: Counter;
  unit_price_amd: number;
  free_when: string;
}

/** `GET /api/v1/billing/pricing`: exactly two entries, `transactions` then `receipts`. */
export function priceList(config: BillingConfig): [PriceEntry, PriceEntry] {
  return [
    {
      counter: 'transactions',
      unit_price_amd: config.transactionPriceAmd,
      free_when: `the payment amount is under ${config.freeBelowAmd} AMD, or it is a test (sandbox) payment`,
    },
    { counter: 'receipts', unit_price_amd: config.receiptPriceAmd, free_when: RECEIPTS_FREE_WHEN },
  ];
}

/** Whether a completed payment consumes one `transactions` unit. */
export function paymentConsumes(payment: { sandbox: boolean; amount: number }, config: BillingConfig): boolean {
  return !payment.sandbox && payment.amount >= config.freeBelowAmd;
}

/** `blocked` of a balance entry: `no`, `grace` (below zero, payments still taken) or `yes` (refused). */
export type BlockedState = 'no' | 'grace' | 'yes';

/** The lowest balance allowed, as the API reports it (zero or negative). */
export function graceFloor(config: BillingConfig): number {
  return config.graceUnits === 0 ? 0 : -config.graceUnits;
}

/**
 * A balance at or below the grace floor has no room for another unit: new live payments are
 * refused (402 `BALANCE_EXHAUSTED`). Below zero but above the floor, they are still taken.
 */
export function blockedState(available: number, config: BillingConfig, unlimited: boolean): BlockedState {
  if (unlimited) return 'no';
  if (available <= graceFloor(config)) return 'yes';
  return available < 0 ? 'grace' : 'no';
}

export interface BalanceEntry {
  counter: Counter;
  available: number;
  grace_floor: number;
  blocked: BlockedState;
  unlimited: boolean;
}

export function balanceEntry(
  counter: Counter,
  available: number,
  config: BillingConfig,
  unlimited: boolean,
): BalanceEntry {
  return {
    counter,
    available,
    grace_floor: graceFloor(config),
    blocked: blockedState(available, config, unlimited),
    unlimited,
  };
}

/** The price of `quantity` units of `counter`, whole AMD. */
export function purchaseAmount(counter: Counter, quantity: number, config: BillingConfig): number {
  return quantity * (counter === 'transactions' ? config.transactionPriceAmd : config.receiptPriceAmd);
}

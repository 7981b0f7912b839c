/**
 * What the gateway needs from a fiscal system (an electronic cash register service that issues
 * fiscal receipts). Each system lives in its own folder beside this file, in the same shape as the
 * processors (docs/receipts.md):
 *
 * - `adapter.ts`: the `FiscalSystem` object: HTTP and authentication with the remote;
 * - `wire.ts`: the remote's exact request and answer shapes (zod schemas of what it sends);
 * - `map.ts`: pure mapping of the core's receipts to the remote's fields, and of its answers and
 *   error codes back, with an exhaustive switch in which an unknown code maps to an explicit kind.
 *
 * The core owns everything around an adapter: the per-domain settings (validated by the adapter's
 * schema, sealed at rest), the receipt rows and the durable job that issues them exactly once, the
 * register's request sequence, the HTTP client with its timeouts and private-address guard, and
 * the reconciliation of a receipt whose outcome is unknown. An adapter answers data (issued,
 * refused, unknown, unavailable) and never throws for what the fiscal system answered.
 */
import type { z } from 'zod';
import type { ProcessorHttp } from '../processors/http.js';

/**
 * One line of a sale receipt, in whole AMD. `classification`, `code` and `unit` are null when the
 * payment did not name them: the adapter then uses the domain's defaults from its settings.
 */
export interface ReceiptLine {
  /** What was sold, as the buyer sees it (the adapter shortens it to what the system accepts). */
  readonly name: string;
  /** The goods/service classification code (Armenia: ԱԴԳ / ADG code). */
  readonly classification: string | null;
  /** The merchant's own code of the goods. */
  readonly code: string | null;
  readonly unit: string | null;
  /** Thousandths of a unit: 1000 is one unit (the fiscal systems take three decimals). */
  readonly quantityMilli: number;
  /** Whole AMD per unit, at least 1. */
  readonly unitPrice: number;
}

/** A sale paid by card through the service (or, for `POST /api/v1/receipts`, declared by the merchant). */
export interface SaleReceipt {
  /** The register's request sequence number for this call (see `FiscalCall.seq`). */
  readonly seq: number;
  /** Whole AMD paid by card (non-cash). */
  readonly cardAmount: number;
  /** Whole AMD paid in cash (receipts for sales not paid through the service). */
  readonly cashAmount: number;
  readonly lines: readonly ReceiptLine[];
}

/** Returns (part of) a sale: quantities of the sale's lines, by their index in the sale. */
export interface ReturnReceipt {
  readonly seq: number;
  /** The fiscal system's id of the sale receipt (`FiscalReceipt.fiscalId`). */
  readonly saleFiscalId: string;
  /** Whole AMD given back by card. */
  readonly cardAmount: number;
  /** Whole AMD given back in cash. */
  readonly cashAmount: number;
  readonly lines: readonly { readonly index: number; readonly quantityMilli: number }[];
}

/** What the fiscal system answered for an issued receipt; kept by the core. */
export interface FiscalReceipt {
  /** The system's id of the receipt (e-HDM `receiptId`). */
  readonly fiscalId: string;
  /** The register's number (e-HDM `crn`). */
  readonly registerNumber: string;
  /** The register's serial number (e-HDM `sn`). */
  readonly serialNumber: string;
  /** The taxpayer's identification number (TIN) and name, and the address, as printed. */
  readonly tin: string;
  readonly taxpayer: string;
  readonly address: string;
  /** The fiscal number printed on the receipt (e-HDM `fiscal`). */
  readonly fiscalNumber: string;
  /** When the system registered it (epoch ms). */
  readonly issuedAtMs: number;
  /** The receipt's total as the system computed it, in AMD (may carry cents). */
  readonly total: number;
  /** The text the receipt's QR code encodes (e-HDM `qr`): the buyer's means to verify it. */
  readonly qrText: string;
}

/**
 * What asking for a receipt answered:
 *
 * - `issued`: the receipt exists (the answer carried it);
 * - `refused`: the system answered and refused: nothing was issued. `retry` says whether the same
 *   receipt may succeed later unchanged (the system was busy, the sequence number was refused)
 *   rather than never (bad settings, a receipt the system will not take);
 * - `unknown`: the request may have reached the system and there is no answer (a timeout, a cut
 *   connection, an error page): the receipt may or may not exist. Never retried blindly;
 * - `unavailable`: nothing reached the system (refused address, connection refused, DNS).
 *
 * `code` is the system's own error code when it gave one; `detail` is for the log and the
 * merchant, never carrying credentials.
 */
export type IssueAnswer =
  | { readonly kind: 'issued'; readonly receipt: FiscalReceipt }
  | { readonly kind: 'refused'; readonly retry: boolean; readonly code: string | null; readonly detail: string }
  | { readonly kind: 'unknown'; readonly detail: string }
  | { readonly kind: 'unavailable'; readonly detail: string };

/**
 * Looking for a receipt whose issuing had an unknown outcome. The system has no lookup by a key of
 * ours, so the adapter reads the register's receipts after the last one the gateway knows.
 */
export interface ReceiptSearch {
  /** The fiscal id of the last receipt the gateway knows this register issued; null when none. */
  readonly afterFiscalId: string | null;
  /** What the receipt looked for is: a sale or a return. */
  readonly type: 'sale' | 'return';
  readonly cardAmount: number;
  readonly cashAmount: number;
  /**
   * When the first attempt to issue it started (epoch ms). A receipt of the same type and amounts
   * dated earlier (less the clocks' allowance) cannot be ruled out: the search is then undecided.
   */
  readonly notBeforeMs: number;
  /** A sequence number for each read the search makes. */
  nextSeq(): Promise<number>;
}

/**
 * - `found`: exactly one receipt of the register matches (same type, amounts, time window), and
 *   no other could be it;
 * - `absent`: every receipt after `afterFiscalId` was read up to the register's last one (an answer
 *   the adapter knows for "no such receipt"), and none has the type and amounts looked for: the
 *   receipt was not issued, it may be issued again;
 * - `undecided`: anything the search cannot rule out (no known receipt to start from, two
 *   candidates, one of the same type and amounts dated before the first attempt, too many to read,
 *   an answer the adapter does not know, or the system could not be read): nothing is issued again,
 *   and a person decides (docs/receipts.md). A receipt is never printed twice.
 */
export type SearchAnswer =
  | { readonly kind: 'found'; readonly receipt: FiscalReceipt }
  | { readonly kind: 'absent' }
  | { readonly kind: 'undecided'; readonly detail: string };

/** Everything an adapter's call needs, built by the core for one domain. */
export interface FiscalCall<C> {
  /** The domain's settings for this system, validated by `configSchema` and unsealed. */
  readonly config: C;
  /** The guarded HTTP client; requests may carry client-certificate TLS options. */
  readonly http: ProcessorHttp;
}

export interface FiscalSystem<C = unknown> {
  readonly slug: string;
  readonly displayName: string;
  /** The domain's settings (`receipts enable --config JSON`). */
  readonly configSchema: z.ZodType<C>;
  /**
   * The register a domain's settings name: the core keeps one request sequence per register
   * (several domains of a merchant may share one register).
   */
  registerOf(config: C): string;
  /**
   * The address the settings' calls go to: calls to one address share a counterpart's bounded
   * concurrency and circuit breaker (gateway/processors/counterparts.ts).
   */
  serviceUrl(config: C): string;
  /** Checks that the settings work (credentials accepted, register reachable). */
  check(
    call: FiscalCall<C>,
    seq: number,
  ): Promise<{ readonly ok: true } | { readonly ok: false; readonly detail: string }>;
  issueSale(call: FiscalCall<C>, receipt: SaleReceipt): Promise<IssueAnswer>;
  issueReturn(call: FiscalCall<C>, receipt: ReturnReceipt): Promise<IssueAnswer>;
  /** Finds a receipt whose issuing had an unknown outcome. Never issues anything. */
  search(call: FiscalCall<C>, search: ReceiptSearch): Promise<SearchAnswer>;
}

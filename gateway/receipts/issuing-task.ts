/** One try or search the issuer makes for a receipt it claimed (issuer.ts), with what it needs to make it. */
import type { ReceiptRow } from '../../storage/receipt.table.js';
import type { DomainReceipts } from './settings.js';

export type Fiscal = Extract<DomainReceipts, { kind: 'fiscal' }>;

export interface Task {
  readonly kind: 'issue' | 'search';
  readonly row: ReceiptRow;
  readonly settings: Fiscal;
  /** The sale receipt of a return. */
  readonly sale: ReceiptRow | undefined;
  /** The counterpart the task calls (`counterpartKey` of the system at its address). */
  readonly counterpart: string;
}

/** The ledger answer as tests read it (spec "Ledger entry"). */
import type { LedgerEntry } from '../../gateway/billing/billing.service.js';

export type { LedgerEntry };

export interface LedgerPage {
  data: LedgerEntry[];
  next_cursor: string | null;
}

/** The ledger answer as tests read it (spec "Ledger entry"). */
export interface LedgerEntry {
  id: number;
  counter: string;
  delta: number;
  event_type: string;
  ref_type: string | null;
  ref_id: string | null;
  balance_after: number;
  note: string | null;
  created_at: string;
}

export interface LedgerPage {
  data: LedgerEntry[];
  next_cursor: string | null;
}

import type { Insertable, Selectable } from 'kysely';

/** A payment's order at one processor (migration 0007; gateway/processors/processor.ts `ProcessorSession`). */
export interface ProcessorSessionTable {
  payment_id: string;
  processor: string;
  /** What the gateway sent as the order's number; unique per processor. */
  order_number: string;
  /** The processor's own id of the order; unique per processor once given. */
  reference: string | null;
  /** Where the buyer was sent (JSON of a `BuyerRedirect`); null until the processor registered the order. */
  redirect: string | null;
  /** When the buyer came back from the processor's page: the checkout then waits instead of sending them there again. */
  returned_at: string | null;
  /** When the poll job reads the status back next; null: not polled (final, or no status API). */
  next_check_at: string | null;
  /** Status reads made by the poll job. */
  checks: number;
  /** Why the last status read failed (for operators; never shown to buyers). */
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

/** A counter per (domain, processor), for integer order ids. */
export interface ProcessorSequenceTable {
  domain_id: string;
  processor: string;
  value: number;
}

export type ProcessorSessionRow = Selectable<ProcessorSessionTable>;
export type NewProcessorSessionRow = Insertable<ProcessorSessionTable>;

/** Rows written straight to storage by storage-level tests. */
import type { NewMerchantRow } from '../../storage/merchant.table.js';

export const FIXED_NOW = '2026-11-21T10:00:00.000Z';

export function merchantRow(id: string, overrides: Partial<NewMerchantRow> = {}): NewMerchantRow {
  return {
    id,
    name: `Shop ${id}`,
    email: null,
    business_verified: 0,
    unlimited: 0,
    rate_limit_per_minute: null,
    created_at: FIXED_NOW,
    updated_at: FIXED_NOW,
    ...overrides,
  };
}

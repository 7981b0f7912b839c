/**
 * The operator's list of merchants (`gateway merchant list`): who has an account, its hosted
 * domain and whether its business is verified, oldest first. Never a key or a secret.
 */
import { listMerchantsWithHostedDomain } from '../../storage/merchant.repository.js';
import type { Deps } from '../runtime/deps.js';

export interface MerchantListEntry {
  merchant_id: string;
  name: string;
  email: string | null;
  hosted_domain: string | null;
  business_verified: boolean;
  created_at: string;
}

export async function listMerchants(deps: Deps): Promise<{ merchants: MerchantListEntry[] }> {
  const rows = await listMerchantsWithHostedDomain(deps.db);
  return {
    merchants: rows.map((row) => ({
      merchant_id: row.id,
      name: row.name,
      email: row.email,
      hosted_domain: row.hosted_domain,
      business_verified: row.business_verified === 1,
      created_at: row.created_at,
    })),
  };
}

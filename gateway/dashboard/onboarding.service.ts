/**
 * The first page after sign-up: the test key, shown once (it is held sealed from sign-up until
 * then, and the row is deleted as it is shown), and the checklist of the way to live payments,
 * read from the database at every view.
 */
import { takeOnboardingKey } from '../../storage/dashboard-onboarding-key.repository.js';
import type { Executor } from '../../storage/database.js';
import type { Deps } from '../runtime/deps.js';

/** The sealing context of a merchant's onboarding key (binds the sealed value to its row). */
export function onboardingKeyContext(merchantId: string): string {
  return `dashboard_onboarding_keys:${merchantId}`;
}

/** The test key in clear, to the first view only; undefined afterwards. */
export async function takeTestKey(deps: Deps, merchantId: string): Promise<string | undefined> {
  const sealed = await takeOnboardingKey(deps.db, merchantId);
  return sealed === undefined ? undefined : deps.sealer.open(sealed, onboardingKeyContext(merchantId));
}

export const CHECKLIST_ITEMS = [
  'test_payment',
  'domain_added',
  'domain_verified',
  'processor_enabled',
  'business_verified',
  'live_key',
] as const;

export type ChecklistItem = (typeof CHECKLIST_ITEMS)[number];

export type Checklist = Readonly<Record<ChecklistItem, boolean>>;

async function exists(query: { executeTakeFirst(): Promise<unknown> }): Promise<boolean> {
  return (await query.executeTakeFirst()) !== undefined;
}

/** What the merchant has done so far, as the database says now. */
export async function readChecklist(db: Executor, merchantId: string): Promise<Checklist> {
  const ownDomains = db
    .selectFrom('domains')
    .select('id')
    .where('merchant_id', '=', merchantId)
    .where('hosted', '=', 0);
  const [testPayment, domainAdded, domainVerified, processorEnabled, business, liveKey] = await Promise.all([
    exists(
      db
        .selectFrom('payments')
        .select('id')
        .where('merchant_id', '=', merchantId)
        .where('environment', '=', 'test')
        .limit(1),
    ),
    exists(ownDomains.limit(1)),
    exists(ownDomains.where('verified', '=', 1).limit(1)),
    exists(
      db
        .selectFrom('domain_processors')
        .innerJoin('domains', 'domains.id', 'domain_processors.domain_id')
        .select('domains.id')
        .where('domains.merchant_id', '=', merchantId)
        .where('domain_processors.enabled', '=', 1)
        // The sandbox never pays a live payment, wherever it is installed: only a bank or wallet counts.
        .where('domain_processors.processor', '!=', 'sandbox')
        .limit(1),
    ),
    exists(db.selectFrom('merchants').select('id').where('id', '=', merchantId).where('business_verified', '=', 1)),
    exists(
      db
        .selectFrom('api_keys')
        .select('id')
        .where('merchant_id', '=', merchantId)
        .where('environment', '=', 'live')
        .where('revoked_at', 'is', null)
        .limit(1),
    ),
  ]);
  return {
    test_payment: testPayment,
    domain_added: domainAdded,
    domain_verified: domainVerified,
    processor_enabled: processorEnabled,
    business_verified: business,
    live_key: liveKey,
  };
}

/**
 * The dashboard sections' screenshots, one walk per section, run by scripts/screenshots.ts at each
 * size while the account's owner is signed in (on `/dashboard/account`). A walk photographs its
 * pages with `shoot('<section>-<page>')` (written as `docs/screenshots/dashboard-<name>-<size>.png`)
 * and leaves the owner signed in.
 */
import { apiKeysShots } from './api-keys.js';
import { billingShots } from './billing.js';
import { businessShots } from './business.js';
import { customersShots } from './customers.js';
import { domainsShots } from './domains.js';
import { holdsShots } from './holds.js';
import { overviewShots } from './overview.js';
import { paymentDetailShots } from './payment-detail.js';
import { paymentLinksShots } from './payment-links.js';
import { paymentsShots } from './payments.js';
import { processorsShots } from './processors.js';
import type { SectionShots } from './shot.js';
import { teamShots } from './team.js';
import { twoFactorShots } from './two-factor.js';

export const SECTION_SHOTS: readonly SectionShots[] = [
  domainsShots,
  processorsShots,
  apiKeysShots,
  businessShots,
  twoFactorShots,
  teamShots,
  billingShots,
  paymentLinksShots,
  customersShots,
  overviewShots,
  paymentsShots,
  paymentDetailShots,
  holdsShots,
];

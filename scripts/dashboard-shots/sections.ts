/**
 * The dashboard sections' screenshots, one walk per section, run by scripts/screenshots.ts at each
 * size while the account's owner is signed in (on `/dashboard/account`). A walk photographs its
 * pages with `shoot('<section>-<page>')` (written as `docs/screenshots/dashboard-<name>-<size>.png`)
 * and leaves the owner signed in.
 */
import type { Page } from 'playwright-core';
import type { Deps } from '../../gateway/runtime/deps.js';
import type { TestSmtp } from '../../test/support/smtp-server.js';
import { apiKeysShots } from './api-keys.js';
import { billingShots } from './billing.js';
import { businessShots } from './business.js';
import { customersShots } from './customers.js';
import { domainsShots } from './domains.js';
import { overviewShots } from './overview.js';
import { paymentDetailShots } from './payment-detail.js';
import { paymentLinksShots } from './payment-links.js';
import { paymentsShots } from './payments.js';
import { processorsShots } from './processors.js';
import { teamShots } from './team.js';
import { twoFactorShots } from './two-factor.js';

export interface SectionShotsContext {
  readonly page: Page;
  readonly shoot: (name: string) => Promise<void>;
  readonly publicUrl: string;
  readonly smtp: TestSmtp;
  readonly deps: Deps;
  /** The signed-in owner's account, email and password. */
  readonly merchantId: string;
  readonly email: string;
  readonly password: string;
  /** `desktop` or `phone`: names made unique per size (a second account's email...). */
  readonly size: string;
}

export type SectionShots = (context: SectionShotsContext) => Promise<void>;

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
];

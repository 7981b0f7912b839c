/**
 * The dashboard's sections beyond accounts, each in its own folder with its routes, pages and
 * texts, registered here in navigation order. A section's routes are written with the kit
 * (gateway/dashboard/kit.ts): `kit.signedIn` for pages, `kit.formGuard` then `kit.manager` for
 * every POST, `kit.notFound` for ids of another account, `kit.audit` for sensitive actions.
 */
import { apiKeysRoutes } from './api-keys/api-keys.routes.js';
import { auditRoutes } from './audit/audit.routes.js';
import { billingRoutes } from './billing/billing.routes.js';
import { businessRoutes } from './business/business.routes.js';
import { connectTokensRoutes } from './connect-tokens/connect-tokens.routes.js';
import { customersRoutes } from './customers/customers.routes.js';
import { demoRoutes } from './demo/demo.routes.js';
import { domainsRoutes } from './domains/domains.routes.js';
import type { SectionRoutes } from './kit.js';
import { overviewRoutes } from './overview/overview.routes.js';
import { paymentDetailRoutes } from './payment-detail/payment-detail.routes.js';
import { paymentLinksRoutes } from './payment-links/payment-links.routes.js';
import { paymentsRoutes } from './payments/payments.routes.js';
import { processorsRoutes } from './processors/processors.routes.js';
import { teamRoutes } from './team/team.routes.js';
import { twoFactorRoutes } from './two-factor/two-factor.routes.js';

export const SECTIONS: readonly SectionRoutes[] = [
  paymentsRoutes,
  apiKeysRoutes,
  domainsRoutes,
  processorsRoutes,
  connectTokensRoutes,
  businessRoutes,
  twoFactorRoutes,
  teamRoutes,
  auditRoutes,
  billingRoutes,
  paymentLinksRoutes,
  customersRoutes,
  overviewRoutes,
  paymentDetailRoutes,
  demoRoutes,
];

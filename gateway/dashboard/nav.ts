/**
 * The dashboard's main navigation, in order (drawn by gateway/dashboard/layout.ts; its labels are
 * each language's `nav` messages). `href: null` is a page still to come (shown, not a link). A
 * section's routes live in its own folder (gateway/dashboard/<section>/) and are registered in
 * gateway/dashboard/sections.ts.
 */
export const NAV = [
  { id: 'home', href: '/dashboard' },
  { id: 'overview', href: '/dashboard/overview' },
  { id: 'payments', href: '/dashboard/payments' },
  { id: 'customers', href: '/dashboard/customers' },
  { id: 'payment_links', href: '/dashboard/payment-links' },
  { id: 'billing', href: '/dashboard/billing' },
  { id: 'api_keys', href: '/dashboard/api-keys' },
  { id: 'domains', href: '/dashboard/domains' },
  { id: 'processors', href: '/dashboard/processors' },
  { id: 'connect_tokens', href: '/dashboard/connect-tokens' },
  { id: 'business', href: '/dashboard/business' },
  { id: 'team', href: '/dashboard/team' },
  { id: 'audit_log', href: '/dashboard/audit-log' },
  { id: 'account', href: '/dashboard/account' },
] as const satisfies ReadonlyArray<{ id: string; href: string | null }>;
export type NavId = (typeof NAV)[number]['id'];

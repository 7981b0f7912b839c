/**
 * What each kind of credential may do (spec "Authentication", rule 4). Full-access keys may do
 * everything; payments-only keys may create and read payments and payment links (and drive sandbox
 * payments with the test helpers) and capture or void the payments they hold; connect tokens may
 * create, read, capture, void and refund payments of their own domain, nothing else.
 */
import type { KeyAccess } from './api-keys.js';

export const OPERATIONS = [
  'payments.create',
  'payments.read',
  'payment_links.manage',
  'refunds.create',
  /** Capture or void a held (`authorized`) payment: docs/decisions.md "Holds". */
  'payments.capture',
  'billing.read',
  'billing.purchase',
  'billing.configure',
  /** Fiscal receipts: issue one for a sale not paid through the service, read and list them. */
  'receipts.create',
  'receipts.read',
  /** Queue a past event's webhook again (full-access keys only). */
  'webhooks.resend',
  /** Settle a payment with the processor's reference when its callback was lost (full-access keys only). */
  'payments.settle',
  /** The sandbox test helpers (pay, confirm, clock). */
  'test_helpers.use',
  /** Customer records (an addition; full-access keys only). */
  'customers.read',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export type CredentialKind = { kind: 'api_key'; access: KeyAccess } | { kind: 'connect_token' };

export function mayPerform(credential: CredentialKind, operation: Operation): boolean {
  if (credential.kind === 'connect_token') {
    return (
      operation === 'payments.create' ||
      operation === 'payments.read' ||
      operation === 'refunds.create' ||
      operation === 'payments.capture'
    );
  }
  switch (credential.access) {
    case 'full':
      return true;
    case 'payments':
      return (
        operation === 'payments.create' ||
        operation === 'payments.read' ||
        operation === 'payments.capture' ||
        operation === 'payment_links.manage' ||
        operation === 'test_helpers.use'
      );
  }
}

/** A dashboard member's role (docs/dashboard.md "Team"). */
export type MemberRole = 'owner' | 'admin' | 'viewer';

/**
 * Who reads an answer, a page or a file that may hold a secret: an API credential, a signed-in
 * dashboard member, or the operator (the CLI, run on the service's host).
 */
export type SecretReader = CredentialKind | { kind: 'dashboard_member'; role: MemberRole } | { kind: 'operator' };

/**
 * Whether `reader` may see secrets as they were set: a webhook URL's user name, password and query
 * values, a webhook secret on request, a key or a token when it is created. Full-access keys, owners,
 * admins and the operator may; payments-only keys, connect tokens and viewers may not (they see
 * such a URL masked, see masked-url.ts).
 */
export function maySeeSecrets(reader: SecretReader): boolean {
  switch (reader.kind) {
    case 'api_key':
      return reader.access === 'full';
    case 'connect_token':
      return false;
    case 'dashboard_member':
      return reader.role === 'owner' || reader.role === 'admin';
    case 'operator':
      return true;
  }
}

/**
 * Shopify's requests to the payments app and the Payments Apps GraphQL mutations, exactly as
 * documented (shopify.dev "Payments app request reference", the Payments Apps API reference; see
 * /work/research/shopify.md sections 1-2). Unknown keys Shopify adds later are ignored.
 */
import { z } from 'zod';

const decimal = z.string().regex(/^\d{1,15}(\.\d{1,8})?$/, { error: 'must be a decimal string such as "123.00"' });
const url = z
  .string()
  .max(8192)
  .refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
    error: 'must be an http(s) URL',
  });

/** `POST payment_session_url` (body). */
export const paymentSessionRequest = z.object({
  id: z.string().min(1).max(255),
  gid: z.string().startsWith('gid://shopify/PaymentSession/'),
  group: z.string().min(1).max(255),
  session_id: z.string().max(255).optional(),
  amount: decimal,
  currency: z.string().regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code' }),
  test: z.boolean(),
  merchant_locale: z.string().max(35).optional(),
  payment_method: z.object({
    type: z.literal('offsite'),
    data: z.object({ cancel_url: url }),
  }),
  proposed_at: z.string().optional(),
  customer: z.record(z.string(), z.unknown()).optional(),
  kind: z.enum(['sale', 'authorization']),
});
export type PaymentSessionRequest = z.infer<typeof paymentSessionRequest>;

/** `POST refund_session_url` (body). */
export const refundSessionRequest = z.object({
  id: z.string().min(1).max(255),
  gid: z.string().startsWith('gid://shopify/RefundSession/'),
  payment_id: z.string().min(1).max(255),
  amount: decimal,
  currency: z.string().regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code' }),
  merchant_locale: z.string().max(35).optional(),
  proposed_at: z.string().optional(),
});
export type RefundSessionRequest = z.infer<typeof refundSessionRequest>;

/**
 * `POST capture_session_url` (body): the capture of an authorized payment session (`payment_id`),
 * for `amount` (at most what was authorized; less is a partial capture).
 */
export const captureSessionRequest = z.object({
  id: z.string().min(1).max(255),
  gid: z.string().startsWith('gid://shopify/CaptureSession/'),
  payment_id: z.string().min(1).max(255),
  amount: decimal,
  currency: z.string().regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code' }),
  test: z.boolean(),
  merchant_locale: z.string().max(35).optional(),
  proposed_at: z.string().min(1),
});
export type CaptureSessionRequest = z.infer<typeof captureSessionRequest>;

/** `POST void_session_url` (body): the release of an authorized payment session (`payment_id`). */
export const voidSessionRequest = z.object({
  id: z.string().min(1).max(255),
  gid: z.string().startsWith('gid://shopify/VoidSession/'),
  payment_id: z.string().min(1).max(255),
  test: z.boolean().optional(),
  merchant_locale: z.string().max(35).optional(),
  proposed_at: z.string().min(1),
});
export type VoidSessionRequest = z.infer<typeof voidSessionRequest>;

/** The headers Shopify sends with every session request (all three required). */
export const SESSION_HEADERS = ['shopify-shop-domain', 'shopify-request-id', 'shopify-api-version'] as const;

const userError = z.object({ field: z.array(z.string()).nullable().optional(), message: z.string() });
const nextAction = z
  .object({
    action: z.string(),
    context: z.object({ redirectUrl: z.string().optional() }).passthrough(),
  })
  .nullable()
  .optional();
const paymentSessionState = z
  .object({
    __typename: z.string().optional(),
    code: z.string().optional(),
    rejectedReason: z.string().optional(),
    merchantMessage: z.string().nullable().optional(),
    pendingReason: z.string().nullable().optional(),
  })
  .passthrough();
const paymentSessionPayload = z.object({
  paymentSession: z.object({ id: z.string(), state: paymentSessionState.optional(), nextAction }).nullable(),
  userErrors: z.array(userError.extend({ code: z.string().nullable().optional() })),
});
const paymentsAppConfigurePayload = z.object({
  paymentsAppConfiguration: z.object({ externalHandle: z.string().nullable(), ready: z.boolean() }).nullable(),
  userErrors: z.array(userError),
});
const refundSessionPayload = z.object({
  refundSession: z.object({ id: z.string() }).nullable(),
  userErrors: z.array(userError.extend({ code: z.string().nullable().optional() })),
});
const captureSessionPayload = z.object({
  captureSession: z.object({ id: z.string() }).nullable(),
  userErrors: z.array(userError.extend({ code: z.string().nullable().optional() })),
});
const voidSessionPayload = z.object({
  voidSession: z.object({ id: z.string() }).nullable(),
  userErrors: z.array(userError.extend({ code: z.string().nullable().optional() })),
});

/**
 * The payment session as each mutation reads it back: its id, its state and Shopify's next action.
 * `state` is a union (`PaymentSessionStates`) whose members give `reason` different types
 * (`PaymentSessionStateRejectedReason!` on a rejected state, `PaymentSessionStatePendingReason` on a
 * pending one), so one selection may not ask for `reason` on both: graphql-js and Shopify refuse
 * such a document ("Fields \"reason\" conflict"). Each state type has its own fragment, and the two
 * reasons their own alias.
 */
const PAYMENT_SESSION_SELECTION = `paymentSession {
      id
      authorizationExpiresAt
      state {
        __typename
        ... on PaymentSessionStateResolved { code }
        ... on PaymentSessionStateRejected { code rejectedReason: reason merchantMessage }
        ... on PaymentSessionStatePending { code pendingReason: reason }
      }
      nextAction { action context { ... on PaymentSessionActionsRedirect { redirectUrl } } }
    }`;

/** The mutations the app sends, each with its payload's schema. */
export const MUTATIONS = {
  paymentSessionResolve: {
    query: `mutation PaymentSessionResolve($id: ID!, $authorizationExpiresAt: DateTime) {
  paymentSessionResolve(id: $id, authorizationExpiresAt: $authorizationExpiresAt) {
    ${PAYMENT_SESSION_SELECTION}
    userErrors { field message }
  }
}`,
    payload: paymentSessionPayload,
  },
  paymentSessionReject: {
    query: `mutation PaymentSessionReject($id: ID!, $reason: PaymentSessionRejectionReasonInput!) {
  paymentSessionReject(id: $id, reason: $reason) {
    ${PAYMENT_SESSION_SELECTION}
    userErrors { field message }
  }
}`,
    payload: paymentSessionPayload,
  },
  paymentSessionPending: {
    query: `mutation PaymentSessionPending($id: ID!, $pendingExpiresAt: DateTime!, $reason: PaymentSessionStatePendingReason!) {
  paymentSessionPending(id: $id, pendingExpiresAt: $pendingExpiresAt, reason: $reason) {
    ${PAYMENT_SESSION_SELECTION}
    userErrors { field message code }
  }
}`,
    payload: paymentSessionPayload,
  },
  paymentsAppConfigure: {
    query: `mutation PaymentsAppConfigure($externalHandle: String, $ready: Boolean!) {
  paymentsAppConfigure(externalHandle: $externalHandle, ready: $ready) {
    paymentsAppConfiguration { externalHandle ready }
    userErrors { field message }
  }
}`,
    payload: paymentsAppConfigurePayload,
  },
  refundSessionResolve: {
    query: `mutation RefundSessionResolve($id: ID!) {
  refundSessionResolve(id: $id) {
    refundSession { id state { ... on RefundSessionStateResolved { code } } }
    userErrors { field message code }
  }
}`,
    payload: refundSessionPayload,
  },
  refundSessionReject: {
    query: `mutation RefundSessionReject($id: ID!, $reason: RefundSessionRejectionReasonInput!) {
  refundSessionReject(id: $id, reason: $reason) {
    refundSession { id state { ... on RefundSessionStateRejected { code reason merchantMessage } } }
    userErrors { field message code }
  }
}`,
    payload: refundSessionPayload,
  },
  captureSessionResolve: {
    query: `mutation CaptureSessionResolve($id: ID!) {
  captureSessionResolve(id: $id) {
    captureSession { id state { ... on CaptureSessionStateResolved { code } } }
    userErrors { field message code }
  }
}`,
    payload: captureSessionPayload,
  },
  captureSessionReject: {
    query: `mutation CaptureSessionReject($id: ID!, $reason: CaptureSessionRejectionReasonInput!) {
  captureSessionReject(id: $id, reason: $reason) {
    captureSession { id state { ... on CaptureSessionStateRejected { code reason merchantMessage } } }
    userErrors { field message code }
  }
}`,
    payload: captureSessionPayload,
  },
  voidSessionResolve: {
    query: `mutation VoidSessionResolve($id: ID!) {
  voidSessionResolve(id: $id) {
    voidSession { id state { ... on VoidSessionStateResolved { code } } }
    userErrors { field message code }
  }
}`,
    payload: voidSessionPayload,
  },
  voidSessionReject: {
    query: `mutation VoidSessionReject($id: ID!, $reason: VoidSessionRejectionReasonInput!) {
  voidSessionReject(id: $id, reason: $reason) {
    voidSession { id state { ... on VoidSessionStateRejected { code reason merchantMessage } } }
    userErrors { field message code }
  }
}`,
    payload: voidSessionPayload,
  },
} as const;

export type MutationName = keyof typeof MUTATIONS;
export type MutationPayload<M extends MutationName> = z.output<(typeof MUTATIONS)[M]['payload']>;

/**
 * The fake Payments Apps API's capture and void session mutations (test/support/fake-shopify-payments.ts
 * holds the sessions and the endpoint): `captureSessionResolve` / `captureSessionReject` and
 * `voidSessionResolve` / `voidSessionReject`, answered as documented; and the session state all the
 * fake's mutations keep.
 */
// biome-ignore lint/suspicious/noExplicitAny: GraphQL answers built as plain JSON
type Json = Record<string, any>;

/** A session the fake Shopify keeps (every kind). */
export interface SessionState {
  kind: SessionKind;
  shop: string;
  state: 'initiated' | 'pending' | 'resolved' | 'rejected';
  // biome-ignore lint/suspicious/noExplicitAny: the reject reason as sent
  reason?: any;
  /** `authorizationExpiresAt` of a resolved payment session (null when not given). */
  authorizationExpiresAt?: string | null;
}

export type SessionKind = 'payment' | 'refund' | 'capture' | 'void';

/** What the mutations need of the fake: its sessions, its refusal and how it answers repeats. */
export interface HoldFake {
  find(
    id: unknown,
    kind: SessionKind,
  ): { gid: string; session: SessionState } | { gid: string; session?: undefined; error: string };
  refuse(payloadKey: string, message: string, code?: string): Json;
  repeated(): 'succeed' | 'user_error';
}

/**
 * A capture or void session's resolve and reject, as documented for `captureSessionResolve` /
 * `captureSessionReject` (and the void's): a repeated resolve (or reject) succeeds, the other
 * decision fails with `<KIND>_SESSION_INVALID_STATE`; an unknown session is `<KIND>_SESSION_NOT_FOUND`.
 */
export function holdSessionMutations(kind: 'capture' | 'void', fake: HoldFake) {
  const key = `${kind}Session`;
  const typeName = kind === 'capture' ? 'CaptureSession' : 'VoidSession';
  const prefix = kind.toUpperCase();
  const answer = (gid: string, session: SessionState) => ({
    [key]: {
      id: gid,
      state:
        session.state === 'rejected'
          ? {
              __typename: `${typeName}StateRejected`,
              code: 'REJECTED',
              reason: session.reason?.code,
              merchantMessage: session.reason?.merchantMessage ?? null,
            }
          : { __typename: `${typeName}StateResolved`, code: 'RESOLVED' },
    },
    userErrors: [],
  });
  return {
    resolve: ({ id }: Json) => {
      const found = fake.find(id, kind);
      if (found.session === undefined) return fake.refuse(key, found.error, `${prefix}_SESSION_NOT_FOUND`);
      const { session } = found;
      if (session.state === 'rejected' || (session.state === 'resolved' && fake.repeated() === 'user_error')) {
        return fake.refuse(key, `${typeName} has already been finalized`, `${prefix}_SESSION_INVALID_STATE`);
      }
      session.state = 'resolved';
      return answer(found.gid, session);
    },
    reject: ({ id, reason }: Json) => {
      const found = fake.find(id, kind);
      if (found.session === undefined) return fake.refuse(key, found.error, `${prefix}_SESSION_NOT_FOUND`);
      const { session } = found;
      if (session.state === 'resolved' || (session.state === 'rejected' && fake.repeated() === 'user_error')) {
        return fake.refuse(key, `${typeName} has already been finalized`, `${prefix}_SESSION_INVALID_STATE`);
      }
      if (session.state !== 'rejected') session.reason = { ...reason };
      session.state = 'rejected';
      return answer(found.gid, session);
    },
  };
}

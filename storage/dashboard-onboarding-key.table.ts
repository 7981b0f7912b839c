/** The test key created at sign-up, sealed, until the dashboard shows it once (then deleted). */
export interface DashboardOnboardingKeyTable {
  merchant_id: string;
  /** Sealed with the service secret, bound to the merchant (gateway/runtime/sealing.ts). */
  sealed_key: string;
  created_at: string;
}

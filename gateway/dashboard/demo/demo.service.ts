/**
 * The demo merchant's dashboard (docs/dashboard.md "The demo merchant"). `gateway serve` creates a
 * demo merchant on an empty database and prints its test key; nobody could sign in as it, so the
 * payments made with that key were seen by nobody. Beside the key it now prints a link that makes
 * whoever opens it first the demo merchant's owner: they choose their sign-in email and password,
 * and are signed in.
 *
 * - The link carries a random 256-bit token; only its SHA-256 is kept, as the name of a
 *   `service_settings` row (`demo_claim:<sha256>`, the merchant and the link's end in its value).
 *   It works once (the row is deleted by the claim that wins) and for 24 hours, and only while the
 *   demo merchant has no dashboard user.
 * - The address chosen counts as confirmed: the link was printed to whoever started the service,
 *   who vouches for it as the operator vouches for `merchant create --email`. Without `SMTP_URL`
 *   no confirmation mail could reach it anyway, and the owner could never sign in again.
 * - One dashboard account per email across the service, as at sign-up.
 * - The test key printed with the link is also kept sealed until the owner's first visit of the
 *   dashboard's home, which shows it once with a ready curl (as after a sign-up).
 */
import { insertOnboardingKey } from '../../../storage/dashboard-onboarding-key.repository.js';
import {
  findDashboardUserByEmail,
  insertDashboardUser,
  listMerchantDashboardUsers,
} from '../../../storage/dashboard-user.repository.js';
import type { DashboardUserRow } from '../../../storage/dashboard-user.table.js';
import type { Executor } from '../../../storage/database.js';
import { isUniqueViolation } from '../../../storage/errors.js';
import { findMerchant, updateMerchant } from '../../../storage/merchant.repository.js';
import { findSetting, insertSetting, takeSetting } from '../../../storage/service-setting.repository.js';
import type { Language } from '../../checkout/i18n/index.js';
import { DAY_MS, toStoredInstant } from '../../domain/clock.js';
import type { Deps } from '../../runtime/deps.js';
import { sha256Hex } from '../../runtime/hashing.js';
import { type FieldProblems, normalizeEmail, openSignedInSession, type SignedIn } from '../accounts.service.js';
import { onboardingKeyContext } from '../onboarding.service.js';
import { hashPassword, passwordProblem } from '../passwords.js';

/** How long the printed link works. */
export const DEMO_CLAIM_TTL_MS = DAY_MS;
/** Where the printed link leads (its token in `?token=`). */
export const DEMO_CLAIM_PATH = '/dashboard/demo';

const SETTING_PREFIX = 'demo_claim:';

interface ClaimValue {
  readonly merchant_id: string;
  readonly expires_at: string;
}

function settingName(token: string): string {
  return `${SETTING_PREFIX}${sha256Hex(token)}`;
}

/**
 * Issues the link that makes its first visitor the owner of `merchantId` (the demo merchant,
 * without dashboard users), and keeps its test key sealed for the owner's first visit. Answers
 * the link.
 */
export async function issueDemoClaim(deps: Deps, merchantId: string, testKey: string | undefined): Promise<string> {
  const token = deps.ids.token(32);
  await deps.transact(async (trx) => {
    const nowMs = deps.clock.nowMs();
    const now = toStoredInstant(nowMs);
    const value: ClaimValue = { merchant_id: merchantId, expires_at: toStoredInstant(nowMs + DEMO_CLAIM_TTL_MS) };
    await insertSetting(trx, settingName(token), JSON.stringify(value), now);
    if (testKey !== undefined) {
      await insertOnboardingKey(trx, {
        merchant_id: merchantId,
        sealed_key: deps.sealer.seal(testKey, onboardingKeyContext(merchantId)),
        created_at: now,
      });
    }
  });
  return `${deps.config.publicUrl}${DEMO_CLAIM_PATH}?token=${token}`;
}

function parseClaim(value: string | undefined): ClaimValue | undefined {
  if (value === undefined) return undefined;
  const parsed = JSON.parse(value) as Partial<ClaimValue>;
  return typeof parsed.merchant_id === 'string' && typeof parsed.expires_at === 'string'
    ? { merchant_id: parsed.merchant_id, expires_at: parsed.expires_at }
    : undefined;
}

/** The claim's merchant while the link works: unused, not expired, the merchant without users yet. */
async function usableClaim(deps: Deps, db: Executor, claim: ClaimValue | undefined): Promise<string | undefined> {
  if (claim === undefined || claim.expires_at <= toStoredInstant(deps.clock.nowMs())) return undefined;
  if ((await listMerchantDashboardUsers(db, claim.merchant_id)).length > 0) return undefined;
  return (await findMerchant(db, claim.merchant_id))?.name;
}

/** The name of the merchant a link would make its visitor the owner of; undefined when it does not work. */
export async function peekDemoClaim(deps: Deps, token: string): Promise<string | undefined> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return undefined;
  return usableClaim(deps, deps.db, parseClaim(await findSetting(deps.db, settingName(token))));
}

export interface DemoClaimInput {
  readonly token: string;
  readonly email: string;
  readonly password: string;
  /** The request's address (recorded as the new session's). */
  readonly address: string;
  /** The page's language: the account's emails from the service are written in it. */
  readonly language: Language;
}

export type DemoClaimResult =
  | { readonly kind: 'invalid' }
  | { readonly kind: 'problems'; readonly problems: FieldProblems; readonly accountName: string }
  | ({ readonly kind: 'signed_in' } & SignedIn);

/** Makes the link's visitor the demo merchant's owner, signed in (the link works once). */
export async function claimDemoMerchant(deps: Deps, input: DemoClaimInput): Promise<DemoClaimResult> {
  const accountName = await peekDemoClaim(deps, input.token);
  if (accountName === undefined) return { kind: 'invalid' };
  const problems: FieldProblems = {};
  const email = normalizeEmail(input.email);
  if (email === null) problems.email = input.email.trim() === '' ? 'required' : 'invalid_email';
  else if ((await findDashboardUserByEmail(deps.db, email)) !== undefined) problems.email = 'email_taken';
  const weak = passwordProblem(input.password, input.email);
  if (weak !== null) problems.password = weak;
  if (email === null || Object.keys(problems).length > 0) return { kind: 'problems', problems, accountName };

  const passwordHash = await hashPassword(input.password, deps.config.passwordHashCost);
  try {
    return await deps.transact(async (trx): Promise<DemoClaimResult> => {
      const claim = parseClaim(await takeSetting(trx, settingName(input.token)));
      if (claim === undefined || (await usableClaim(deps, trx, claim)) === undefined) return { kind: 'invalid' };
      const nowMs = deps.clock.nowMs();
      const now = toStoredInstant(nowMs);
      const user: DashboardUserRow = {
        id: deps.ids.uuid(nowMs),
        merchant_id: claim.merchant_id,
        email,
        password_hash: passwordHash,
        role: 'owner',
        email_verified_at: now,
        totp_secret: null,
        totp_enabled_at: null,
        totp_last_step: null,
        password_changed_at: now,
        created_at: now,
        updated_at: now,
      };
      await insertDashboardUser(trx, user);
      // The owner's address is also the merchant's, where the service's own mails go.
      await updateMerchant(trx, claim.merchant_id, { email, language: input.language, updated_at: now });
      return { kind: 'signed_in', ...(await openSignedInSession(deps, trx, user, input.address)) };
    });
  } catch (error) {
    // The address got an account meanwhile (a sign-up at the same moment): the claim stays usable.
    if (isUniqueViolation(error)) return { kind: 'problems', problems: { email: 'email_taken' }, accountName };
    throw error;
  }
}

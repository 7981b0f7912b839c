/**
 * The merchant dashboard (server-rendered), under `/dashboard`:
 *
 * - `GET  /dashboard`                      get started: the test key once, a curl, the checklist
 * - `GET|POST /dashboard/sign-up`          create an account (a merchant and its owner)
 * - `GET|POST /dashboard/sign-in`, `POST /dashboard/sign-out`
 * - `GET|POST /dashboard/verify-email`     confirm an address from a mailed link (`?token=`)
 * - `GET|POST /dashboard/reset`            ask for a password reset link
 * - `GET|POST /dashboard/reset/new`        set a new password from the link (`?token=`)
 * - `GET /dashboard/account`, `POST /dashboard/account/email`, `POST /dashboard/account/password`,
 *   `POST /dashboard/account/email-language` (owners and admins: the language of the account's emails)
 * - the sections (API keys, domains, processors...), each from its own folder (sections.ts)
 *
 * Every POST checks the form token first (403 and nothing done without it); every answer carries
 * the checkout's headers: a nonce CSP with `frame-ancestors 'none'`, `X-Frame-Options: DENY`,
 * `Cache-Control: no-store`. Mails leave after the answer is decided, in the background, so an
 * answer never takes longer because a mail was sent.
 */
import { Router } from '@koa/router';
import { findMerchant, updateMerchant } from '../../storage/merchant.repository.js';
import type { GatewayContext, GatewayState } from '../api/context.js';
import { isLanguage } from '../checkout/i18n/index.js';
import { toStoredInstant } from '../domain/clock.js';
import { sandboxPaymentCurl } from '../merchants/sandbox-curl.js';
import type { Deps } from '../runtime/deps.js';
import {
  changeEmail,
  changePassword,
  confirmEmail,
  type FieldProblems,
  requestPasswordReset,
  resetLinkUsable,
  resetPassword,
  SIGN_IN_WINDOW_MS,
  signIn,
  signUp,
} from './accounts.service.js';
import { SESSION_COOKIE } from './cookies.js';
import type { DashboardMessages } from './i18n/index.js';
import { type DashboardKit, type DashboardOptions, dashboardKit, type SignedInVisit, type Visit } from './kit.js';
import { readChecklist, takeTestKey } from './onboarding.service.js';
import { peekToken } from './one-time-tokens.js';
import {
  type AccountView,
  accountPage,
  confirmEmailPage,
  homePage,
  messagePage,
  newPasswordPage,
  resetRequestPage,
  signInPage,
  signUpPage,
} from './pages.js';
import { mayManage, maySeeSecrets } from './roles.js';
import { SECTIONS } from './sections.js';
import { endSession } from './sessions.js';
import { PENDING_SIGN_IN_COOKIE, PENDING_SIGN_IN_MS } from './two-factor/pending-sign-ins.js';

export type { DashboardOptions } from './kit.js';

const NOTICES: Readonly<Record<string, (t: DashboardMessages) => string>> = {
  verified: (t) => t.emailConfirmed,
  'email-changed': (t) => t.emailChanged,
  'signed-out': (t) => t.signedOut,
  reset: (t) => t.passwordReset,
  'password-changed': (t) => t.passwordChanged,
  'email-language-changed': (t) => t.emailLanguageChanged,
  'session-ended': (t) => t.sessionEnded,
};

export function dashboardRouter(deps: Deps, options: DashboardOptions): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const kit = dashboardKit(deps, options);
  coreRoutes(router, kit);
  for (const sectionRoutes of SECTIONS) sectionRoutes(router, kit);

  // Last: any other page under /dashboard is an HTML 404 with the layout, not the API's JSON one.
  router.get('/dashboard/*rest', async (ctx) => kit.notFound(ctx, await kit.begin(ctx)));
  return router;
}

/** Accounts: sign-up, sign-in and out, email confirmation, reset, the account page, and home. */
function coreRoutes(router: Router<GatewayState>, kit: DashboardKit): void {
  const { deps, begin, send, redirect, signedIn, formGuard, field, mail, setCookie } = kit;
  const publicUrl = kit.publicUrl;

  const noticeOf = (ctx: GatewayContext, t: DashboardMessages): string | null => {
    const key = kit.query(ctx, 'notice');
    return key !== undefined && Object.hasOwn(NOTICES, key)
      ? (NOTICES[key] as (t: DashboardMessages) => string)(t)
      : null;
  };

  /** A mailed link that no longer works (used, expired, unknown), with where to go instead. */
  const deadLink = (ctx: GatewayContext, visit: Visit, href: string, text: string) =>
    send(
      ctx,
      visit.shell,
      400,
      messagePage(visit.shell, visit.t.linkInvalidTitle, visit.t.linkInvalidText, { href, text }),
    );

  router.get('/dashboard', async (ctx) => {
    const visit = await signedIn(ctx, 'home');
    if (visit === undefined) return;
    const merchantId = visit.session.user.merchant_id;
    // A viewer never sees a secret: the test key stays sealed for the owner's (or an admin's) visit.
    const testKey = maySeeSecrets(visit.session.user.role) ? ((await takeTestKey(deps, merchantId)) ?? null) : null;
    const checklist = await readChecklist(deps.db, merchantId);
    const curl = sandboxPaymentCurl(publicUrl, testKey ?? 'sk_test_…');
    send(ctx, visit.shell, 200, homePage(visit.shell, { notice: noticeOf(ctx, visit.t), testKey, curl, checklist }));
  });

  router.get('/dashboard/sign-up', async (ctx) => {
    const visit = await begin(ctx);
    if (visit.session !== undefined) return redirect(ctx, '/dashboard');
    send(ctx, visit.shell, 200, signUpPage(visit.shell, { name: '', email: '', problems: {} }));
  });

  router.post('/dashboard/sign-up', formGuard, async (ctx) => {
    const visit = await begin(ctx);
    const input = { name: field(ctx, 'name'), email: field(ctx, 'email'), password: field(ctx, 'password') };
    const result = await signUp(deps, { ...input, language: visit.shell.lang });
    if (!result.ok) {
      const view = { name: input.name, email: input.email, problems: result.problems };
      return send(ctx, visit.shell, 422, signUpPage(visit.shell, view));
    }
    mail(visit.t, result.mail);
    send(
      ctx,
      visit.shell,
      200,
      messagePage(visit.shell, visit.t.checkEmailTitle, visit.t.checkEmailText(result.email)),
    );
  });

  router.get('/dashboard/sign-in', async (ctx) => {
    const visit = await begin(ctx);
    if (visit.session !== undefined) return redirect(ctx, '/dashboard');
    send(ctx, visit.shell, 200, signInPage(visit.shell, { email: '', notice: noticeOf(ctx, visit.t), error: null }));
  });

  router.post('/dashboard/sign-in', formGuard, async (ctx) => {
    const visit = await begin(ctx);
    const { t } = visit;
    const email = field(ctx, 'email');
    const result = await signIn(deps, { email, password: field(ctx, 'password'), address: ctx.ip });
    switch (result.kind) {
      case 'locked': {
        const error = t.lockedOut(SIGN_IN_WINDOW_MS / 60_000);
        return send(ctx, visit.shell, 429, signInPage(visit.shell, { email, notice: null, error }));
      }
      case 'wrong':
        return send(ctx, visit.shell, 401, signInPage(visit.shell, { email, notice: null, error: t.wrongCredentials }));
      case 'unverified':
        mail(t, result.mail);
        return send(
          ctx,
          visit.shell,
          200,
          messagePage(visit.shell, t.checkEmailTitle, t.unverifiedText(result.mail.to)),
        );
      case 'second_factor':
        // No session yet: the code is asked on the next page, for five minutes.
        setCookie(ctx, PENDING_SIGN_IN_COOKIE, result.pendingId, PENDING_SIGN_IN_MS / 1000);
        return redirect(ctx, '/dashboard/sign-in/two-factor');
      case 'signed_in':
        // A new id at every sign-in: whatever id this browser had before is ended.
        await kit.enterSession(ctx, result);
        return redirect(ctx, '/dashboard');
    }
  });

  router.post('/dashboard/sign-out', formGuard, async (ctx) => {
    await endSession(deps, ctx.cookies.get(SESSION_COOKIE));
    setCookie(ctx, SESSION_COOKIE, '', 0);
    redirect(ctx, '/dashboard/sign-in?notice=signed-out');
  });

  router.get('/dashboard/verify-email', async (ctx) => {
    const visit = await begin(ctx);
    const { t } = visit;
    const token = kit.query(ctx, 'token') ?? '';
    if ((await peekToken(deps, deps.db, token, ['verify_email', 'change_email'])) === undefined) {
      return deadLink(ctx, visit, '/dashboard/sign-in', t.signInTitle);
    }
    send(ctx, visit.shell, 200, confirmEmailPage(visit.shell, token));
  });

  router.post('/dashboard/verify-email', formGuard, async (ctx) => {
    const visit = await begin(ctx);
    const { t } = visit;
    const result = await confirmEmail(deps, field(ctx, 'token'));
    switch (result) {
      case 'invalid':
        return deadLink(ctx, visit, '/dashboard/sign-in', t.signInTitle);
      case 'email_taken':
        return send(ctx, visit.shell, 409, messagePage(visit.shell, t.linkInvalidTitle, t.emailTaken));
      case 'verified':
        return redirect(
          ctx,
          visit.session === undefined ? '/dashboard/sign-in?notice=verified' : '/dashboard?notice=verified',
        );
      case 'changed':
        return redirect(
          ctx,
          visit.session === undefined
            ? '/dashboard/sign-in?notice=email-changed'
            : '/dashboard/account?notice=email-changed',
        );
    }
  });

  router.get('/dashboard/reset', async (ctx) => {
    const visit = await begin(ctx);
    send(ctx, visit.shell, 200, resetRequestPage(visit.shell, { email: '' }));
  });

  router.post('/dashboard/reset', formGuard, async (ctx) => {
    const visit = await begin(ctx);
    const outgoing = await requestPasswordReset(deps, field(ctx, 'email'));
    if (outgoing !== null) mail(visit.t, outgoing);
    send(
      ctx,
      visit.shell,
      200,
      messagePage(visit.shell, visit.t.resetTitle, visit.t.resetSentText, {
        href: '/dashboard/sign-in',
        text: visit.t.signInTitle,
      }),
    );
  });

  router.get('/dashboard/reset/new', async (ctx) => {
    const visit = await begin(ctx);
    const { t } = visit;
    const token = kit.query(ctx, 'token') ?? '';
    if (!(await resetLinkUsable(deps, token))) {
      return deadLink(ctx, visit, '/dashboard/reset', t.resetTitle);
    }
    send(ctx, visit.shell, 200, newPasswordPage(visit.shell, token));
  });

  router.post('/dashboard/reset/new', formGuard, async (ctx) => {
    const visit = await begin(ctx);
    const { t } = visit;
    const token = field(ctx, 'token');
    const result = await resetPassword(deps, token, field(ctx, 'password'));
    switch (result.kind) {
      case 'invalid':
        return deadLink(ctx, visit, '/dashboard/reset', t.resetTitle);
      case 'problem':
        return send(ctx, visit.shell, 422, newPasswordPage(visit.shell, token, result.problem));
      case 'done':
        setCookie(ctx, SESSION_COOKIE, '', 0);
        return redirect(ctx, '/dashboard/sign-in?notice=reset');
    }
  });

  const noProblems: FieldProblems = {};

  /** The account page: the forms as the request left them; the account's email language for an owner or admin. */
  const sendAccount = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    status: number,
    parts: Partial<Pick<AccountView, 'notice' | 'newEmail' | 'emailProblems' | 'passwordProblems' | 'languageProblem'>>,
  ) => {
    const merchant = mayManage(visit.session.user.role) ? await findMerchant(deps.db, visit.merchantId) : undefined;
    const view: AccountView = {
      notice: null,
      newEmail: '',
      emailProblems: noProblems,
      passwordProblems: noProblems,
      languageProblem: false,
      ...parts,
      twoFactorOn: visit.session.user.totp_enabled_at !== null,
      emailLanguage: merchant?.language ?? null,
    };
    send(ctx, visit.shell, status, accountPage(visit.shell, view));
  };

  router.get('/dashboard/account', async (ctx) => {
    const visit = await signedIn(ctx, 'account');
    if (visit === undefined) return;
    await sendAccount(ctx, visit, 200, { notice: noticeOf(ctx, visit.t) });
  });

  router.post('/dashboard/account/email', formGuard, async (ctx) => {
    const visit = await signedIn(ctx, 'account');
    if (visit === undefined) return;
    const newEmail = field(ctx, 'email');
    const result = await changeEmail(deps, visit.session.user, {
      currentPassword: field(ctx, 'current_password'),
      newEmail,
    });
    if (!result.ok) return sendAccount(ctx, visit, 422, { newEmail, emailProblems: result.problems });
    mail(visit.t, result.mail);
    await sendAccount(ctx, visit, 200, { notice: visit.t.changeEmailSent(result.mail.to) });
  });

  router.post('/dashboard/account/password', formGuard, async (ctx) => {
    const visit = await signedIn(ctx, 'account');
    if (visit === undefined) return;
    const result = await changePassword(deps, visit.session.user, {
      currentPassword: field(ctx, 'current_password'),
      newPassword: field(ctx, 'password'),
      address: ctx.ip,
    });
    if (!result.ok) return sendAccount(ctx, visit, 422, { passwordProblems: result.problems });
    setCookie(ctx, SESSION_COOKIE, result.sessionId);
    redirect(ctx, '/dashboard/account?notice=password-changed');
  });

  router.post('/dashboard/account/email-language', formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'account');
    if (visit === undefined) return;
    const language = field(ctx, 'language');
    if (!isLanguage(language)) return sendAccount(ctx, visit, 422, { languageProblem: true });
    await updateMerchant(deps.db, visit.merchantId, { language, updated_at: toStoredInstant(deps.clock.nowMs()) });
    redirect(ctx, '/dashboard/account?notice=email-language-changed');
  });
}

/**
 * The merchant dashboard (server-rendered), under `/dashboard`:
 *
 * - `GET  /dashboard`                      get started: the test key once, a curl, the checklist
 * - `GET|POST /dashboard/sign-up`          create an account (a merchant and its owner)
 * - `GET|POST /dashboard/sign-in`, `POST /dashboard/sign-out`
 * - `GET|POST /dashboard/verify-email`     confirm an address from a mailed link (`?token=`)
 * - `GET|POST /dashboard/reset`            ask for a password reset link
 * - `GET|POST /dashboard/reset/new`        set a new password from the link (`?token=`)
 * - `GET /dashboard/account`, `POST /dashboard/account/email`, `POST /dashboard/account/password`
 *
 * Every POST checks the form token first (403 and nothing done without it); every answer carries
 * the checkout's headers: a nonce CSP with `frame-ancestors 'none'`, `X-Frame-Options: DENY`,
 * `Cache-Control: no-store`. Mails leave after the answer is decided, in the background, so an
 * answer never takes longer because a mail was sent.
 */
import { Router } from '@koa/router';
import type { GatewayContext, GatewayState } from '../api/context.js';
import { type FormFields, readFormBody } from '../checkout/form-body.js';
import { newNonce, setPageHeaders } from '../checkout/security.js';
import { sandboxPaymentCurl } from '../merchants/sandbox-curl.js';
import type { Mailer, MailMessage } from '../notifications/mailer.js';
import type { Deps } from '../runtime/deps.js';
import {
  changeEmail,
  changePassword,
  confirmEmail,
  type FieldProblems,
  type Outgoing,
  type OutgoingKind,
  requestPasswordReset,
  resetLinkUsable,
  resetPassword,
  SIGN_IN_WINDOW_MS,
  signIn,
  signUp,
} from './accounts.service.js';
import { cookieHeader, FORM_COOKIE, LANGUAGE_COOKIE, SESSION_COOKIE } from './cookies.js';
import { formToken, formTokenMatches } from './form-guard.js';
import { chooseDashboardLanguage, DASHBOARD_DICTIONARIES, type DashboardMessages, isLanguage } from './i18n/index.js';
import { readChecklist, takeTestKey } from './onboarding.service.js';
import { peekToken } from './one-time-tokens.js';
import {
  accountPage,
  confirmEmailPage,
  homePage,
  messagePage,
  newPasswordPage,
  resetRequestPage,
  type Shell,
  signInPage,
  signUpPage,
} from './pages.js';
import { type ActiveSession, endSession, resumeSession } from './sessions.js';

export interface DashboardOptions {
  readonly mailer: Mailer;
}

/** One request's view: its language, its session (if any), and the page shell. */
interface Visit {
  readonly t: DashboardMessages;
  readonly session: ActiveSession | undefined;
  readonly shell: Shell;
}

/** Where each mail's own link leads (its token in the query); null: the mail has none. */
const MAIL_LINK_PATHS: Readonly<Record<OutgoingKind, string | null>> = {
  verify_email: '/dashboard/verify-email',
  change_email: '/dashboard/verify-email',
  reset_password: '/dashboard/reset/new',
  already_registered: null,
};

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

const NOTICES: Readonly<Record<string, (t: DashboardMessages) => string>> = {
  verified: (t) => t.emailConfirmed,
  'email-changed': (t) => t.emailChanged,
  'signed-out': (t) => t.signedOut,
  reset: (t) => t.passwordReset,
  'password-changed': (t) => t.passwordChanged,
  'session-ended': (t) => t.sessionEnded,
};

function queryString(ctx: GatewayContext, name: string): string | undefined {
  const value = ctx.query[name];
  return typeof value === 'string' ? value : undefined;
}

function noticeOf(ctx: GatewayContext, t: DashboardMessages): string | null {
  const key = queryString(ctx, 'notice');
  return key !== undefined && Object.hasOwn(NOTICES, key)
    ? (NOTICES[key] as (t: DashboardMessages) => string)(t)
    : null;
}

export function dashboardRouter(deps: Deps, options: DashboardOptions): Router<GatewayState> {
  const router = new Router<GatewayState>();
  const publicUrl = deps.config.publicUrl;
  const publicOrigin = new URL(publicUrl).origin;
  const secure = publicUrl.startsWith('https:');
  /** The form fields of a POST whose form token was checked. */
  const forms = new WeakMap<GatewayContext, FormFields>();

  const setCookie = (ctx: GatewayContext, name: string, value: string, maxAgeSeconds?: number) => {
    ctx.append(
      'Set-Cookie',
      cookieHeader(name, value, maxAgeSeconds === undefined ? { secure } : { secure, maxAgeSeconds }),
    );
  };

  /** This page's path and query without `lang`. */
  const selfUrl = (ctx: GatewayContext) => {
    const params = new URLSearchParams(ctx.querystring);
    params.delete('lang');
    const query = params.toString();
    return query === '' ? ctx.path : `${ctx.path}?${query}`;
  };

  const begin = async (ctx: GatewayContext, section: Shell['section'] = null): Promise<Visit> => {
    const asked = queryString(ctx, 'lang');
    const lang = chooseDashboardLanguage(asked, ctx.cookies.get(LANGUAGE_COOKIE), ctx.get('Accept-Language'));
    if (isLanguage(asked)) setCookie(ctx, LANGUAGE_COOKIE, asked, ONE_YEAR_SECONDS);
    const t = DASHBOARD_DICTIONARIES[lang];
    const sessionId = ctx.cookies.get(SESSION_COOKIE);
    const session = await resumeSession(deps, sessionId);
    let binding: string;
    if (session !== undefined && sessionId !== undefined) {
      binding = sessionId;
    } else {
      const existing = ctx.cookies.get(FORM_COOKIE);
      binding = existing !== undefined && /^[A-Za-z0-9_-]{43}$/.test(existing) ? existing : deps.ids.token(32);
      if (binding !== existing) setCookie(ctx, FORM_COOKIE, binding);
    }
    const shell: Shell = {
      t,
      lang,
      nonce: newNonce(),
      formToken: formToken(deps.secret, binding),
      selfUrl: selfUrl(ctx),
      viewer: session === undefined ? null : { email: session.user.email },
      section,
    };
    return { t, session, shell };
  };

  const send = (ctx: GatewayContext, shell: Shell, status: number, html: string) => {
    setPageHeaders(ctx, shell.nonce, null, publicOrigin);
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };

  const redirect = (ctx: GatewayContext, path: string) => {
    setPageHeaders(ctx, newNonce(), null, publicOrigin);
    ctx.status = 303;
    ctx.redirect(`${publicUrl}${path}`);
  };

  /** A page for signed-in users: the visit, or undefined after sending the browser to sign in. */
  const signedIn = async (ctx: GatewayContext, section: Shell['section']) => {
    const visit = await begin(ctx, section);
    if (visit.session === undefined) {
      const hadSession = ctx.cookies.get(SESSION_COOKIE) !== undefined;
      if (hadSession) setCookie(ctx, SESSION_COOKIE, '', 0);
      redirect(ctx, hadSession ? '/dashboard/sign-in?notice=session-ended' : '/dashboard/sign-in');
      return undefined;
    }
    return visit as Visit & { session: ActiveSession };
  };

  const field = (ctx: GatewayContext, name: string): string => forms.get(ctx)?.get(name) ?? '';

  /** Checked before anything else on every POST: the form token of this browser. */
  const formGuard = async (ctx: GatewayContext, next: () => Promise<unknown>) => {
    const fields = await readFormBody(ctx.req);
    const bindings = [ctx.cookies.get(SESSION_COOKIE), ctx.cookies.get(FORM_COOKIE)];
    if (!formTokenMatches(deps.secret, fields.get('form_token'), bindings)) {
      const visit = await begin(ctx);
      const { t } = visit;
      send(ctx, visit.shell, 403, messagePage(visit.shell, t.formExpiredTitle, t.formExpiredText));
      return;
    }
    forms.set(ctx, fields);
    await next();
  };

  /** A mailed link that no longer works (used, expired, unknown), with where to go instead. */
  const deadLink = (ctx: GatewayContext, visit: Visit, href: string, text: string) =>
    send(
      ctx,
      visit.shell,
      400,
      messagePage(visit.shell, visit.t.linkInvalidTitle, visit.t.linkInvalidText, { href, text }),
    );

  /** Sends a mail in the background; a failure is logged without the mail's content. */
  const mail = (t: DashboardMessages, outgoing: Outgoing) => {
    if (options.mailer.kind === 'log') {
      // Without SMTP_URL mail would only be logged, and these mails hold one-time links: say that
      // one was not sent, never what it says.
      deps.logger.warn(
        { to: outgoing.to, kind: outgoing.kind },
        'dashboard email not sent (SMTP_URL is not set); its link is not logged',
      );
      return;
    }
    const path = MAIL_LINK_PATHS[outgoing.kind];
    const links = {
      link: path === null || outgoing.token === null ? '' : `${publicUrl}${path}?token=${outgoing.token}`,
      signIn: `${publicUrl}/dashboard/sign-in`,
      reset: `${publicUrl}/dashboard/reset`,
    };
    const content = t.mail[outgoing.kind];
    const message: MailMessage = { to: outgoing.to, subject: content.subject, text: content.text(links) };
    options.mailer.send(message).catch((error: unknown) => {
      const code = (error as { code?: unknown } | null)?.code;
      deps.logger.warn(
        { kind: outgoing.kind, code: typeof code === 'string' ? code : undefined },
        'dashboard email not sent',
      );
    });
  };

  router.get('/dashboard', async (ctx) => {
    const visit = await signedIn(ctx, 'home');
    if (visit === undefined) return;
    const merchantId = visit.session.user.merchant_id;
    const testKey = (await takeTestKey(deps, merchantId)) ?? null;
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
    const result = await signUp(deps, input);
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
      case 'signed_in':
        // A new id at every sign-in: whatever id this browser had before is ended.
        await endSession(deps, ctx.cookies.get(SESSION_COOKIE));
        if (result.newAddress) {
          deps.logger.info(
            { dashboard_user_id: result.user.id, address: ctx.ip },
            'dashboard sign-in from a new address',
          );
        }
        setCookie(ctx, SESSION_COOKIE, result.sessionId);
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
    const token = queryString(ctx, 'token') ?? '';
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
    const token = queryString(ctx, 'token') ?? '';
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

  router.get('/dashboard/account', async (ctx) => {
    const visit = await signedIn(ctx, 'account');
    if (visit === undefined) return;
    const view = {
      notice: noticeOf(ctx, visit.t),
      newEmail: '',
      emailProblems: noProblems,
      passwordProblems: noProblems,
    };
    send(ctx, visit.shell, 200, accountPage(visit.shell, view));
  });

  router.post('/dashboard/account/email', formGuard, async (ctx) => {
    const visit = await signedIn(ctx, 'account');
    if (visit === undefined) return;
    const newEmail = field(ctx, 'email');
    const result = await changeEmail(deps, visit.session.user, {
      currentPassword: field(ctx, 'current_password'),
      newEmail,
    });
    if (!result.ok) {
      const view = { notice: null, newEmail, emailProblems: result.problems, passwordProblems: noProblems };
      return send(ctx, visit.shell, 422, accountPage(visit.shell, view));
    }
    mail(visit.t, result.mail);
    const view = {
      notice: visit.t.changeEmailSent(result.mail.to),
      newEmail: '',
      emailProblems: noProblems,
      passwordProblems: noProblems,
    };
    send(ctx, visit.shell, 200, accountPage(visit.shell, view));
  });

  router.post('/dashboard/account/password', formGuard, async (ctx) => {
    const visit = await signedIn(ctx, 'account');
    if (visit === undefined) return;
    const result = await changePassword(deps, visit.session.user, {
      currentPassword: field(ctx, 'current_password'),
      newPassword: field(ctx, 'password'),
      address: ctx.ip,
    });
    if (!result.ok) {
      const view = { notice: null, newEmail: '', emailProblems: noProblems, passwordProblems: result.problems };
      return send(ctx, visit.shell, 422, accountPage(visit.shell, view));
    }
    setCookie(ctx, SESSION_COOKIE, result.sessionId);
    redirect(ctx, '/dashboard/account?notice=password-changed');
  });

  // Last: any other page under /dashboard is an HTML 404 with the layout, not the API's JSON one.
  router.get('/dashboard/*rest', async (ctx) => {
    const visit = await begin(ctx);
    const { t } = visit;
    send(
      ctx,
      visit.shell,
      404,
      messagePage(visit.shell, t.notFoundTitle, t.notFoundText, { href: '/dashboard', text: t.navHome }),
    );
  });

  return router;
}

/**
 * What every dashboard route is written with: the visit (language, session, page shell), answers
 * (a page, a redirect, 403 and 404 pages), the form guard that every POST passes first, the role
 * check, background mail, and the audit log. The core routes (dashboard.router.ts) and each
 * section's routes (gateway/dashboard/<section>/) take one kit, made once per router.
 */
import type { Router } from '@koa/router';
import { claimMailSend } from '../../storage/dashboard-mail-send.repository.js';
import type { GatewayContext, GatewayState } from '../api/context.js';
import { type FormFields, readFormBody } from '../checkout/form-body.js';
import { newNonce, setPageHeaders } from '../checkout/security.js';
import { MINUTE_MS, toStoredInstant } from '../domain/clock.js';
import type { VerificationOptions } from '../merchants/domain-verification.service.js';
import type { Mailer, MailMessage } from '../notifications/mailer.js';
import type { Deps } from '../runtime/deps.js';
import type { Outgoing, OutgoingKind, SignedIn } from './accounts.service.js';
import { type AuditAction, recordAudit } from './audit/audit.service.js';
import { cookieHeader, FORM_COOKIE, LANGUAGE_COOKIE, SESSION_COOKIE } from './cookies.js';
import { formToken, formTokenMatches } from './form-guard.js';
import { chooseDashboardLanguage, DASHBOARD_DICTIONARIES, type DashboardMessages, isLanguage } from './i18n/index.js';
import type { Shell } from './layout.js';
import type { NavId } from './nav.js';
import { messagePage } from './pages.js';
import { mayManage } from './roles.js';
import type { ActiveSession } from './sessions.js';
import { endSession, resumeSession } from './sessions.js';

export interface DashboardOptions {
  readonly mailer: Mailer;
  /** Transport settings of domain verification checks (tests: the local HTTPS site's CA and port). */
  readonly domainVerification?: VerificationOptions;
}

/** One request's view: its language, its session (if any), and the page shell. */
export interface Visit {
  readonly t: DashboardMessages;
  readonly session: ActiveSession | undefined;
  readonly shell: Shell;
}

/** The visit of a signed-in user. */
export interface SignedInVisit extends Visit {
  readonly session: ActiveSession;
  /** The account (merchant) the user belongs to: every id a route is given is looked up in it. */
  readonly merchantId: string;
}

/** Where each mail's own link leads (its token in the query); null: the mail has none. */
const MAIL_LINK_PATHS: Readonly<Record<OutgoingKind, string | null>> = {
  verify_email: '/dashboard/verify-email',
  change_email: '/dashboard/verify-email',
  reset_password: '/dashboard/reset/new',
  already_registered: null,
};

const ONE_YEAR_SECONDS = 365 * 24 * 3600;

/**
 * Mails one address gets from the dashboard within `MAIL_WINDOW_MS`, of every kind together: anyone
 * may submit the sign-up or reset form with somebody else's address, and that must not flood it.
 */
export const MAIL_LIMIT_PER_RECIPIENT = 5;
export const MAIL_WINDOW_MS = 60 * MINUTE_MS;

/** A dashboard section: registers its routes with the kit (the list is gateway/dashboard/sections.ts). */
export type SectionRoutes = (router: Router<GatewayState>, kit: DashboardKit) => void;

export interface DashboardKit {
  readonly deps: Deps;
  readonly publicUrl: string;
  readonly domainVerification: VerificationOptions;
  /** The visit of any request, signed in or not. */
  begin(ctx: GatewayContext, section?: NavId | null): Promise<Visit>;
  /** The visit of a signed-in user, or undefined after sending the browser to sign in. */
  signedIn(ctx: GatewayContext, section: NavId | null): Promise<SignedInVisit | undefined>;
  /**
   * The visit of a user who may change things (owner or admin), or undefined after answering:
   * sign in first, or 403 for a viewer. Every state-changing route starts with it.
   */
  manager(ctx: GatewayContext, section: NavId | null): Promise<SignedInVisit | undefined>;
  send(ctx: GatewayContext, shell: Shell, status: number, html: string): void;
  /** 303 to a dashboard path (`/dashboard/...`). */
  redirect(ctx: GatewayContext, path: string): void;
  /** The HTML 404 (also for another account's ids: never "exists but not yours"). */
  notFound(ctx: GatewayContext, visit: Visit): void;
  /** The HTML 403 of a viewer asking to change something. */
  forbidden(ctx: GatewayContext, visit: Visit): void;
  /** Checked before anything else on every POST: the form token of this browser. */
  readonly formGuard: (ctx: GatewayContext, next: () => Promise<unknown>) => Promise<void>;
  /** A field of the POST's form (after `formGuard`), '' when absent. */
  field(ctx: GatewayContext, name: string): string;
  /** A query parameter when given once as a string. */
  query(ctx: GatewayContext, name: string): string | undefined;
  /** Sends an account mail (confirm, reset...) in the background. */
  mail(t: DashboardMessages, outgoing: Outgoing): void;
  /**
   * Sends any mail in the background, within the recipient's hourly limit; a failure is logged as
   * `kind`, without the mail's content.
   */
  sendMail(message: MailMessage, kind: string): void;
  /** Adds to the account's audit log, as the visit's user from the request's address. */
  audit(ctx: GatewayContext, visit: SignedInVisit, action: AuditAction, subject?: string | null): Promise<void>;
  setCookie(ctx: GatewayContext, name: string, value: string, maxAgeSeconds?: number): void;
  /**
   * Gives the browser the session of a complete sign-in (after the password, or after the code of
   * two-step sign-in): ends the id it had (never adopted), logs and audits a new address.
   */
  enterSession(ctx: GatewayContext, signedIn: SignedIn): Promise<void>;
}

export function dashboardKit(deps: Deps, options: DashboardOptions): DashboardKit {
  const publicUrl = deps.config.publicUrl;
  const publicOrigin = new URL(publicUrl).origin;
  const secure = publicUrl.startsWith('https:');
  /** The form fields of a POST whose form token was checked. */
  const forms = new WeakMap<GatewayContext, FormFields>();

  const query = (ctx: GatewayContext, name: string): string | undefined => {
    const value = ctx.query[name];
    return typeof value === 'string' ? value : undefined;
  };

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
    const rest = params.toString();
    return rest === '' ? ctx.path : `${ctx.path}?${rest}`;
  };

  const begin = async (ctx: GatewayContext, section: NavId | null = null): Promise<Visit> => {
    const asked = query(ctx, 'lang');
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
      viewer: session === undefined ? null : { email: session.user.email, role: session.user.role },
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

  const signedIn = async (ctx: GatewayContext, section: NavId | null): Promise<SignedInVisit | undefined> => {
    const visit = await begin(ctx, section);
    if (visit.session === undefined) {
      const hadSession = ctx.cookies.get(SESSION_COOKIE) !== undefined;
      if (hadSession) setCookie(ctx, SESSION_COOKIE, '', 0);
      redirect(ctx, hadSession ? '/dashboard/sign-in?notice=session-ended' : '/dashboard/sign-in');
      return undefined;
    }
    return { ...visit, session: visit.session, merchantId: visit.session.user.merchant_id };
  };

  const forbidden = (ctx: GatewayContext, visit: Visit) =>
    send(
      ctx,
      visit.shell,
      403,
      messagePage(visit.shell, visit.t.forbiddenTitle, visit.t.forbiddenText, {
        href: '/dashboard',
        text: visit.t.nav.home,
      }),
    );

  const manager = async (ctx: GatewayContext, section: NavId | null): Promise<SignedInVisit | undefined> => {
    const visit = await signedIn(ctx, section);
    if (visit === undefined) return undefined;
    if (!mayManage(visit.session.user.role)) {
      forbidden(ctx, visit);
      return undefined;
    }
    return visit;
  };

  const notFound = (ctx: GatewayContext, visit: Visit) =>
    send(
      ctx,
      visit.shell,
      404,
      messagePage(visit.shell, visit.t.notFoundTitle, visit.t.notFoundText, {
        href: '/dashboard',
        text: visit.t.nav.home,
      }),
    );

  const formGuard = async (ctx: GatewayContext, next: () => Promise<unknown>): Promise<void> => {
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

  /** Claims one of the recipient's mails in the last hour: false once the limit is reached. */
  const mayMail = (recipient: string, kind: string) => {
    const nowMs = deps.clock.nowMs();
    return claimMailSend(
      deps.db,
      { id: deps.ids.uuid(nowMs), recipient: recipient.toLowerCase(), kind, sent_at: toStoredInstant(nowMs) },
      toStoredInstant(nowMs - MAIL_WINDOW_MS),
      MAIL_LIMIT_PER_RECIPIENT,
    );
  };

  const deliver = async (message: MailMessage, kind: string) => {
    if (!(await mayMail(message.to, kind))) {
      deps.logger.warn(
        { kind },
        `dashboard email withheld: its recipient already got ${MAIL_LIMIT_PER_RECIPIENT} in the last hour`,
      );
      return;
    }
    if (options.mailer.kind === 'log') {
      // Without SMTP_URL mail would only be logged, and these mails may hold one-time links: say
      // that one was not sent, never what it says.
      deps.logger.warn(
        { to: message.to, kind },
        'dashboard email not sent (SMTP_URL is not set); its link is not logged',
      );
      return;
    }
    await options.mailer.send(message);
  };

  // In the background, the limit's check included: an answer never takes longer because a mail
  // was (or was not) sent, so its time tells nothing about the address.
  const sendMail = (message: MailMessage, kind: string) => {
    deliver(message, kind).catch((error: unknown) => {
      const code = (error as { code?: unknown } | null)?.code;
      deps.logger.warn({ kind, code: typeof code === 'string' ? code : undefined }, 'dashboard email not sent');
    });
  };

  const mail = (t: DashboardMessages, outgoing: Outgoing) => {
    const path = MAIL_LINK_PATHS[outgoing.kind];
    const links = {
      link: path === null || outgoing.token === null ? '' : `${publicUrl}${path}?token=${outgoing.token}`,
      signIn: `${publicUrl}/dashboard/sign-in`,
      reset: `${publicUrl}/dashboard/reset`,
    };
    const content = t.mail[outgoing.kind];
    sendMail({ to: outgoing.to, subject: content.subject, text: content.text(links) }, outgoing.kind);
  };

  const enterSession = async (ctx: GatewayContext, signedIn: SignedIn) => {
    await endSession(deps, ctx.cookies.get(SESSION_COOKIE));
    if (signedIn.newAddress) {
      deps.logger.info(
        { dashboard_user_id: signedIn.user.id, address: ctx.ip },
        'dashboard sign-in from a new address',
      );
      await recordAudit(deps, deps.db, {
        merchantId: signedIn.user.merchant_id,
        actor: { userId: signedIn.user.id, email: signedIn.user.email, address: ctx.ip },
        action: 'sign_in.new_address',
        subject: ctx.ip,
      });
    }
    setCookie(ctx, SESSION_COOKIE, signedIn.sessionId);
  };

  return {
    deps,
    publicUrl,
    domainVerification: options.domainVerification ?? {},
    begin,
    signedIn,
    manager,
    send,
    redirect,
    notFound,
    forbidden,
    formGuard,
    field: (ctx, name) => forms.get(ctx)?.get(name) ?? '',
    query,
    mail,
    sendMail,
    audit: (ctx, visit, action, subject) =>
      recordAudit(deps, deps.db, {
        merchantId: visit.merchantId,
        actor: { userId: visit.session.user.id, email: visit.session.user.email, address: ctx.ip },
        action,
        subject: subject ?? null,
      }),
    setCookie,
    enterSession,
  };
}

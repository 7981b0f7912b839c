/**
 * Two-step sign-in, for every person for themselves (any role, viewers too):
 *
 * - `GET  /dashboard/account/two-factor`                 setup (QR code and key), or, when on, turn off
 *                                                         and new recovery codes
 * - `POST /dashboard/account/two-factor/enable`          a current code and the password: on, and the
 *                                                         recovery codes shown once
 * - `POST /dashboard/account/two-factor/disable`         the password and a code or a recovery code
 * - `POST /dashboard/account/two-factor/recovery-codes`  new recovery codes, shown once
 * - `GET|POST /dashboard/sign-in/two-factor`             the second step of sign-in
 */
import type { Router } from '@koa/router';
import QRCode from 'qrcode';
import type { GatewayContext, GatewayState } from '../../api/context.js';
import { SIGN_IN_WINDOW_MS } from '../accounts.service.js';
import type { DashboardKit, SignedInVisit, Visit } from '../kit.js';
import { messagePage } from '../pages.js';
import { TWO_FACTOR_MESSAGES } from './messages.js';
import { PENDING_SIGN_IN_COOKIE } from './pending-sign-ins.js';
import { enrolPage, managePage, recoveryCodesPage, secondStepPage } from './two-factor.pages.js';
import {
  completeSignIn,
  disableTwoFactor,
  enableTwoFactor,
  pendingEnrolment,
  pendingSignInLive,
  regenerateRecoveryCodes,
  type TwoFactorProblems,
  unusedRecoveryCodes,
} from './two-factor.service.js';

const PAGE = '/dashboard/account/two-factor';
const STEP = '/dashboard/sign-in/two-factor';
const noProblems: TwoFactorProblems = {};

export function twoFactorRoutes(router: Router<GatewayState>, kit: DashboardKit): void {
  const { deps } = kit;
  const messages = (visit: Visit) => TWO_FACTOR_MESSAGES[visit.shell.lang];

  const noticeOf = (ctx: GatewayContext, visit: Visit): string | null => {
    const key = kit.query(ctx, 'notice');
    if (key === 'disabled') return messages(visit).disabledNotice;
    return null;
  };

  const sendEnrol = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    status: number,
    notice: string | null,
    problems: TwoFactorProblems,
  ) => {
    const enrolment = await pendingEnrolment(deps, visit.session.user);
    const qrDataUrl = await QRCode.toDataURL(enrolment.uri, { errorCorrectionLevel: 'M', margin: 2, width: 200 });
    kit.send(
      ctx,
      visit.shell,
      status,
      enrolPage(visit.shell, { notice, secret: enrolment.secret, qrDataUrl, problems }),
    );
  };

  const sendManage = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    status: number,
    problems: { disable?: TwoFactorProblems; codes?: TwoFactorProblems } = {},
    error: string | null = null,
  ) => {
    const user = visit.session.user;
    const view = {
      notice: null,
      error,
      enabledAt: user.totp_enabled_at ?? '',
      unusedRecoveryCodes: await unusedRecoveryCodes(deps, user.id),
      disableProblems: problems.disable ?? noProblems,
      codesProblems: problems.codes ?? noProblems,
    };
    kit.send(ctx, visit.shell, status, managePage(visit.shell, view));
  };

  router.get(PAGE, async (ctx) => {
    const visit = await kit.signedIn(ctx, 'account');
    if (visit === undefined) return;
    if (visit.session.user.totp_enabled_at !== null) return sendManage(ctx, visit, 200);
    await sendEnrol(ctx, visit, 200, noticeOf(ctx, visit), noProblems);
  });

  router.post(`${PAGE}/enable`, kit.formGuard, async (ctx) => {
    const visit = await kit.signedIn(ctx, 'account');
    if (visit === undefined) return;
    const result = await enableTwoFactor(deps, visit.session.user, {
      currentPassword: kit.field(ctx, 'current_password'),
      code: kit.field(ctx, 'code'),
      address: ctx.ip,
    });
    switch (result.kind) {
      case 'stale':
        return kit.redirect(ctx, PAGE);
      case 'problems':
        return sendEnrol(ctx, visit, 422, null, result.problems);
      case 'enabled':
        return kit.send(
          ctx,
          visit.shell,
          200,
          recoveryCodesPage(visit.shell, { notice: messages(visit).enabledNotice, codes: result.recoveryCodes }),
        );
    }
  });

  /**
   * A change confirmed with the password and a code (turning two-step sign-in off, new recovery
   * codes): a refusal is shown on the change's own form (`form`) of the manage page.
   */
  const confirmedChange = (
    path: string,
    change: typeof disableTwoFactor,
    form: 'disable' | 'codes',
    done: (ctx: GatewayContext, visit: SignedInVisit, recoveryCodes: readonly string[]) => void,
  ) =>
    router.post(path, kit.formGuard, async (ctx) => {
      const visit = await kit.signedIn(ctx, 'account');
      if (visit === undefined) return;
      const result = await change(deps, visit.session.user, {
        currentPassword: kit.field(ctx, 'current_password'),
        code: kit.field(ctx, 'code'),
        address: ctx.ip,
      });
      switch (result.kind) {
        case 'stale':
          return kit.redirect(ctx, PAGE);
        case 'locked':
          return sendManage(ctx, visit, 429, {}, visit.t.lockedOut(SIGN_IN_WINDOW_MS / 60_000));
        case 'problems':
          return sendManage(
            ctx,
            visit,
            422,
            form === 'disable' ? { disable: result.problems } : { codes: result.problems },
          );
        case 'done':
          return done(ctx, visit, result.recoveryCodes);
      }
    });

  confirmedChange(`${PAGE}/disable`, disableTwoFactor, 'disable', (ctx) =>
    kit.redirect(ctx, `${PAGE}?notice=disabled`),
  );

  confirmedChange(`${PAGE}/recovery-codes`, regenerateRecoveryCodes, 'codes', (ctx, visit, codes) =>
    kit.send(ctx, visit.shell, 200, recoveryCodesPage(visit.shell, { notice: null, codes })),
  );

  /** The answer when the pending sign-in is gone (never started, used, or older than 5 minutes). */
  const expired = (ctx: GatewayContext, visit: Visit) => {
    const m = messages(visit);
    kit.setCookie(ctx, PENDING_SIGN_IN_COOKIE, '', 0);
    kit.send(
      ctx,
      visit.shell,
      400,
      messagePage(visit.shell, m.stepExpiredTitle, m.stepExpiredText, {
        href: '/dashboard/sign-in',
        text: visit.t.signInTitle,
      }),
    );
  };

  router.get(STEP, async (ctx) => {
    const visit = await kit.begin(ctx);
    if (visit.session !== undefined) return kit.redirect(ctx, '/dashboard');
    if (!(await pendingSignInLive(deps, ctx.cookies.get(PENDING_SIGN_IN_COOKIE)))) return expired(ctx, visit);
    kit.send(ctx, visit.shell, 200, secondStepPage(visit.shell, { error: null }));
  });

  router.post(STEP, kit.formGuard, async (ctx) => {
    const visit = await kit.begin(ctx);
    const result = await completeSignIn(deps, {
      pendingId: ctx.cookies.get(PENDING_SIGN_IN_COOKIE),
      code: kit.field(ctx, 'code'),
      address: ctx.ip,
    });
    switch (result.kind) {
      case 'expired':
        return expired(ctx, visit);
      case 'locked': {
        const error = visit.t.lockedOut(SIGN_IN_WINDOW_MS / 60_000);
        return kit.send(ctx, visit.shell, 429, secondStepPage(visit.shell, { error }));
      }
      case 'wrong':
        return kit.send(ctx, visit.shell, 401, secondStepPage(visit.shell, { error: messages(visit).stepWrong }));
      case 'signed_in':
        kit.setCookie(ctx, PENDING_SIGN_IN_COOKIE, '', 0);
        await kit.enterSession(ctx, result);
        return kit.redirect(ctx, '/dashboard');
    }
  });
}

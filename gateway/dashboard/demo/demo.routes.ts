/**
 * The demo merchant's link (demo.service.ts):
 *
 * - `GET  /dashboard/demo?token=`   the form: the email and password of the demo merchant's owner
 * - `POST /dashboard/demo`          makes the visitor the owner, signed in, then the home page
 *
 * A link that does not work (used, expired, unknown, or the demo merchant already has an owner)
 * answers 400 with a page that says so.
 */
import type { GatewayContext } from '../../api/context.js';
import type { SectionRoutes, Visit } from '../kit.js';
import { messagePage } from '../pages.js';
import { demoClaimPage } from './demo.pages.js';
import { claimDemoMerchant, DEMO_CLAIM_PATH, peekDemoClaim } from './demo.service.js';
import { DEMO_MESSAGES } from './messages.js';

export const demoRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;

  const deadLink = (ctx: GatewayContext, visit: Visit) => {
    const m = DEMO_MESSAGES[visit.shell.lang];
    kit.send(
      ctx,
      visit.shell,
      400,
      messagePage(visit.shell, m.invalidTitle, m.invalidText, {
        href: '/dashboard/sign-in',
        text: visit.t.signInTitle,
      }),
    );
  };

  router.get(DEMO_CLAIM_PATH, async (ctx) => {
    const visit = await kit.begin(ctx);
    const token = kit.query(ctx, 'token') ?? '';
    const accountName = await peekDemoClaim(deps, token);
    if (accountName === undefined) return deadLink(ctx, visit);
    kit.send(ctx, visit.shell, 200, demoClaimPage(visit.shell, { token, accountName, email: '', problems: {} }));
  });

  router.post(DEMO_CLAIM_PATH, kit.formGuard, async (ctx) => {
    const visit = await kit.begin(ctx);
    const token = kit.field(ctx, 'token');
    const email = kit.field(ctx, 'email');
    const result = await claimDemoMerchant(deps, {
      token,
      email,
      password: kit.field(ctx, 'password'),
      address: ctx.ip,
      language: visit.shell.lang,
    });
    switch (result.kind) {
      case 'invalid':
        return deadLink(ctx, visit);
      case 'problems': {
        const view = { token, accountName: result.accountName, email, problems: result.problems };
        return kit.send(ctx, visit.shell, 422, demoClaimPage(visit.shell, view));
      }
      case 'signed_in':
        // A new session id: whatever id this browser had before is ended.
        await kit.enterSession(ctx, result);
        return kit.redirect(ctx, '/dashboard');
    }
  });
};

/**
 * The overview page, `GET /dashboard/overview[?env=test|live]`, for every role (read-only): the
 * last 30 days of the chosen environment (gateway/dashboard/overview/overview.service.ts).
 */
import { environmentOf } from '../customers/environment.js';
import type { SectionRoutes } from '../kit.js';
import { overviewPage } from './overview.pages.js';
import { readOverview } from './overview.service.js';

export const overviewRoutes: SectionRoutes = (router, kit) => {
  router.get('/dashboard/overview', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'overview');
    if (!visit) return;
    const view = await readOverview(kit.deps, visit.merchantId, environmentOf(kit.query(ctx, 'env')));
    kit.send(ctx, visit.shell, 200, overviewPage(visit.shell, view));
  });
};

/**
 * The Processors section:
 *
 * - `GET  /dashboard/processors`                               every domain with what its checkout offers
 * - `GET  /dashboard/domains/:host/processors`                 a domain's processors, order, why no live payments
 * - `GET  /dashboard/domains/:host/processors/:slug`           a processor's settings form (from its schema)
 * - `POST /dashboard/domains/:host/processors/:slug`           replace its settings, and enable it
 * - `POST /dashboard/domains/:host/processors/:slug/enable`    enable (with the stored settings)
 * - `POST /dashboard/domains/:host/processors/:slug/disable`   disable (settings kept)
 * - `POST /dashboard/domains/:host/processors/:slug/move`      one place up or down the checkout's list
 *
 * A host or slug of no domain of the account is a 404; viewers see the pages without forms and
 * every POST answers them 403.
 */

import type { DomainRow } from '../../../storage/domain.table.js';
import type { GatewayContext } from '../../api/context.js';
import { isKnownProcessor, type ProcessorSlug, processorFor } from '../../processors/registry.js';
import type { SectionRoutes, SignedInVisit } from '../kit.js';
import { PROCESSORS_MESSAGES } from './messages.js';
import { domainPage, domainPath, overviewPage, processorName, settingsPage } from './processors.pages.js';
import {
  configureProcessor,
  domainProcessorsView,
  findAccountDomain,
  moveProcessor,
  overview,
  switchProcessor,
} from './processors.service.js';
import { isSecretKey, settingsFields, settingsFromForm } from './settings-form.js';

const NAV_ID = 'processors';

const NOTICES = ['configured', 'enabled', 'disabled', 'moved', 'needs-settings', 'always-on'] as const;
type NoticeKey = (typeof NOTICES)[number];

export const processorsRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;

  /** The domain of the path's host and, when named, the processor; or undefined after a 404. */
  const target = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
  ): Promise<{ domain: DomainRow; slug: ProcessorSlug } | { domain: DomainRow; slug: null } | undefined> => {
    const host = String(ctx.params.host ?? '');
    const domain = await findAccountDomain(deps, visit.merchantId, host);
    const slugParam = ctx.params.slug;
    if (domain === undefined || (slugParam !== undefined && !isKnownProcessor(slugParam))) {
      kit.notFound(ctx, visit);
      return undefined;
    }
    return { domain, slug: slugParam === undefined ? null : (slugParam as ProcessorSlug) };
  };

  const noticeText = (ctx: GatewayContext, visit: SignedInVisit): string | null => {
    const key = kit.query(ctx, 'notice');
    const slug = kit.query(ctx, 'processor') ?? '';
    if (key === undefined || !(NOTICES as readonly string[]).includes(key)) return null;
    const pm = PROCESSORS_MESSAGES[visit.shell.lang];
    const name = isKnownProcessor(slug) ? processorName(pm, slug) : '';
    switch (key as NoticeKey) {
      case 'configured':
        return pm.notices.configured(name);
      case 'enabled':
        return pm.notices.enabled(name);
      case 'disabled':
        return pm.notices.disabled(name);
      case 'moved':
        return pm.notices.moved;
      case 'needs-settings':
        return pm.notices.needsSettings(name);
      case 'always-on':
        return pm.notices.sandboxAlwaysOn;
    }
  };

  const back = (ctx: GatewayContext, host: string, notice: NoticeKey, slug: string) =>
    kit.redirect(ctx, `${domainPath(host)}?notice=${notice}&processor=${slug}`);

  router.get('/dashboard/processors', async (ctx) => {
    const visit = await kit.signedIn(ctx, NAV_ID);
    if (!visit) return;
    kit.send(ctx, visit.shell, 200, overviewPage(visit.shell, await overview(deps, visit.merchantId)));
  });

  router.get('/dashboard/domains/:host/processors', async (ctx) => {
    const visit = await kit.signedIn(ctx, NAV_ID);
    if (!visit) return;
    const found = await target(ctx, visit);
    if (!found) return;
    const view = await domainProcessorsView(deps, found.domain);
    kit.send(ctx, visit.shell, 200, domainPage(visit.shell, view, noticeText(ctx, visit)));
  });

  router.get('/dashboard/domains/:host/processors/:slug', async (ctx) => {
    const visit = await kit.signedIn(ctx, NAV_ID);
    if (!visit) return;
    const found = await target(ctx, visit);
    if (!found || found.slug === null) return;
    const view = await domainProcessorsView(deps, found.domain);
    const state = view.processors.find((p) => p.slug === found.slug);
    if (state === undefined) return kit.notFound(ctx, visit);
    const fields = settingsFields(processorFor(found.slug));
    const page = settingsPage(
      visit.shell,
      { host: found.domain.host, state, fields, values: {}, problems: {} },
      noticeText(ctx, visit),
    );
    kit.send(ctx, visit.shell, 200, page);
  });

  router.post('/dashboard/domains/:host/processors/:slug', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, NAV_ID);
    if (!visit) return;
    const found = await target(ctx, visit);
    if (!found || found.slug === null) return;
    const { domain, slug } = found;
    const fields = settingsFields(processorFor(slug));
    const settings = settingsFromForm(fields, (name) => kit.field(ctx, name));
    const result = await configureProcessor(deps, { merchantId: visit.merchantId, domain, slug, settings });
    if (!result.ok) {
      const view = await domainProcessorsView(deps, domain);
      const state = view.processors.find((p) => p.slug === slug);
      if (state === undefined) return kit.notFound(ctx, visit);
      // Re-shown: what was typed in fields that are not secret; a secret is asked again.
      const values: Record<string, string> = {};
      for (const spec of fields) {
        if (!isSecretKey(spec.key)) values[spec.key] = kit.field(ctx, `setting_${spec.key}`);
      }
      const page = settingsPage(visit.shell, { host: domain.host, state, fields, values, problems: result.problems });
      return kit.send(ctx, visit.shell, 422, page);
    }
    const subject = `${slug} on ${domain.host}`;
    if (processorFor(slug).configSchema !== null) await kit.audit(ctx, visit, 'processor.configured', subject);
    if (!result.wasEnabled) await kit.audit(ctx, visit, 'processor.enabled', subject);
    back(ctx, domain.host, 'configured', slug);
  });

  const switchRoute = (enabled: boolean) => async (ctx: GatewayContext) => {
    const visit = await kit.manager(ctx, NAV_ID);
    if (!visit) return;
    const found = await target(ctx, visit);
    if (!found || found.slug === null) return;
    const { domain, slug } = found;
    const result = await switchProcessor(deps, { merchantId: visit.merchantId, domain, slug, enabled });
    switch (result) {
      case 'needs_settings':
        return kit.redirect(ctx, `${domainPath(domain.host)}/${slug}?notice=needs-settings&processor=${slug}`);
      case 'always_on':
        return back(ctx, domain.host, 'always-on', slug);
      case 'enabled':
      case 'disabled':
        await kit.audit(ctx, visit, enabled ? 'processor.enabled' : 'processor.disabled', `${slug} on ${domain.host}`);
        return back(ctx, domain.host, result, slug);
      case 'unchanged':
        return back(ctx, domain.host, enabled ? 'enabled' : 'disabled', slug);
    }
  };

  router.post('/dashboard/domains/:host/processors/:slug/enable', kit.formGuard, switchRoute(true));
  router.post('/dashboard/domains/:host/processors/:slug/disable', kit.formGuard, switchRoute(false));

  router.post('/dashboard/domains/:host/processors/:slug/move', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, NAV_ID);
    if (!visit) return;
    const found = await target(ctx, visit);
    if (!found || found.slug === null) return;
    const direction = kit.field(ctx, 'direction');
    if (direction !== 'up' && direction !== 'down') return kit.redirect(ctx, domainPath(found.domain.host));
    await moveProcessor(deps, { domain: found.domain, slug: found.slug, direction });
    back(ctx, found.domain.host, 'moved', found.slug);
  });
};

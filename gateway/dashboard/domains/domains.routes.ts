/**
 * The Domains section:
 *
 * - `GET  /dashboard/domains`                              the account's domains; add form (managers)
 * - `POST /dashboard/domains`                              add a domain (`host`)
 * - `GET  /dashboard/domains/:host`                        verification, webhook settings, test event
 * - `POST /dashboard/domains/:host/verify`                 check now (`method` = dns | https)
 * - `POST /dashboard/domains/:host/webhook-url`            set the webhook URL (`url`)
 * - `POST /dashboard/domains/:host/webhook-secret/reveal`  show the signing secret(s) in this answer only
 * - `POST /dashboard/domains/:host/webhook-secret/rotate`  start a 24 h rotation
 * - `POST /dashboard/domains/:host/webhook-test`           send a signed sample event, show the answer
 *
 * Everything goes through the services the CLI uses (merchant.service, domain-verification.service,
 * webhook-settings.service, test-event.service). A host is looked up within the visitor's account:
 * another account's host is the same 404 as an unknown one.
 */

import { listMerchantDomainsWithProcessors } from '../../../storage/domain.repository.js';
import type { DomainRow } from '../../../storage/domain.table.js';
import type { GatewayContext } from '../../api/context.js';
import { toStoredInstant } from '../../domain/clock.js';
import { isIpLiteral, normalizeHost } from '../../domain/hosts.js';
import { maskedUrl, webhookUrlShownTo } from '../../domain/masked-url.js';
import { getDomainVerification, verifyDomain } from '../../merchants/domain-verification.service.js';
import {
  addDomain,
  findNamedDomain,
  OperatorError,
  requireDomain,
  rotateWebhookSecret,
  validHost,
} from '../../merchants/merchant.service.js';
import { isPrivateHost } from '../../outbound/private-addresses.js';
import { openWebhookSecrets, signingSecrets } from '../../webhooks/secrets.js';
import { sendTestEvent } from '../../webhooks/test-event.service.js';
import { getWebhookSettings, setWebhookUrl } from '../../webhooks/webhook-settings.service.js';
import type { SectionRoutes, SignedInVisit } from '../kit.js';
import { mayManage, maySeeSecrets } from '../roles.js';
import {
  type DomainView,
  domainPage,
  domainPath,
  domainsListPage,
  domainsText,
  type RevealedSecrets,
  type TestOutcome,
} from './domains.pages.js';
import type { DomainsMessages } from './messages.js';

const SECTION = 'domains';

/** Why a host may not be added, in the reader's words; null when it is a domain name. */
function hostProblem(m: DomainsMessages, input: string): string | null {
  const asGiven = input
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (asGiven === '') return m.hostRequired;
  const ipLike = isIpLiteral(asGiven) && /^[0-9a-f:.]+$/.test(asGiven);
  if (asGiven === 'localhost' || asGiven.endsWith('.localhost') || ipLike) {
    return m.hostNeverVerifiable;
  }
  const host = normalizeHost(asGiven);
  if (host === null) return m.hostInvalid;
  if (!host.includes('.')) return m.hostSingleLabel;
  return null;
}

/** Why a webhook URL was refused, in the reader's words; null: the service's own message is shown. */
function urlProblem(m: DomainsMessages, raw: string, allowPrivate: boolean): string | null {
  if (raw === '') return m.urlRequired;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return m.urlInvalid;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return m.urlNotHttp;
  if (!allowPrivate && isPrivateHost(parsed.hostname)) return m.urlPrivate;
  return null;
}

export const domainsRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;

  /** The visitor's domain named by the path, or undefined (unknown, not a domain name, another account's). */
  const ownDomain = async (visit: SignedInVisit, host: string): Promise<DomainRow | undefined> => {
    try {
      return await requireDomain(deps, visit.merchantId, host);
    } catch (error) {
      if (error instanceof OperatorError) return undefined;
      throw error;
    }
  };

  const noticeOf = (ctx: GatewayContext, m: DomainsMessages, host: string): string | null => {
    switch (kit.query(ctx, 'notice')) {
      case 'added':
        return m.added(host);
      case 'verified':
        return m.verifiedNow(host);
      case 'url-saved':
        return m.urlSaved;
      case 'rotated':
        return m.rotated;
      default:
        return null;
    }
  };

  const renderList = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    status: number,
    form: { host: string; problem: string | undefined },
  ) => {
    const domains = await listMerchantDomainsWithProcessors(deps.db, visit.merchantId);
    const items = domains
      .map((d) => ({
        host: d.host,
        hosted: d.hosted === 1,
        verified: d.verified === 1,
        webhookSet: d.webhook_url !== null,
      }))
      .sort((a, b) => Number(b.hosted) - Number(a.hosted));
    const view = {
      domains: items,
      canManage: mayManage(visit.session.user.role),
      notice: null,
      ...form,
    };
    kit.send(ctx, visit.shell, status, domainsListPage(visit.shell, view));
  };

  const renderDomain = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    domain: DomainRow,
    status: number,
    extra: Partial<Pick<DomainView, 'error' | 'url' | 'urlProblem' | 'revealed' | 'test' | 'notice'>> = {},
  ) => {
    const m = domainsText(visit.shell);
    const input = { merchantId: visit.merchantId, host: domain.host };
    const hosted = domain.hosted === 1;
    const verification = hosted ? null : await getDomainVerification(deps, input);
    const settings = await getWebhookSettings(deps, input);
    const canManage = mayManage(visit.session.user.role);
    // A URL may carry a password or a token: people who may not see secrets see it masked.
    const reader = { kind: 'dashboard_member', role: visit.session.user.role } as const;
    const shownUrl = settings.webhook_url === null ? null : webhookUrlShownTo(reader, settings.webhook_url);
    const shownSettings = { ...settings, webhook_url: shownUrl };
    const view: DomainView = {
      host: domain.host,
      hosted,
      verified: domain.verified === 1,
      verification,
      settings: shownSettings,
      canManage,
      notice: extra.notice ?? (status === 200 ? noticeOf(ctx, m, domain.host) : null),
      error: extra.error ?? null,
      url: extra.url ?? shownUrl ?? '',
      urlProblem: extra.urlProblem,
      revealed: extra.revealed ?? null,
      test: extra.test ?? null,
    };
    kit.send(ctx, visit.shell, status, domainPage(visit.shell, view));
  };

  router.get('/dashboard/domains', async (ctx) => {
    const visit = await kit.signedIn(ctx, SECTION);
    if (visit === undefined) return;
    await renderList(ctx, visit, 200, { host: '', problem: undefined });
  });

  router.post('/dashboard/domains', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, SECTION);
    if (visit === undefined) return;
    const m = domainsText(visit.shell);
    const input = kit.field(ctx, 'host');
    const problem = hostProblem(m, input);
    if (problem !== null) return renderList(ctx, visit, 422, { host: input, problem });
    let host: string;
    try {
      host = validHost(input);
      const { domain: existing } = await findNamedDomain(deps.db, visit.merchantId, host);
      if (existing !== undefined) return renderList(ctx, visit, 422, { host: input, problem: m.hostDuplicate(host) });
      await addDomain(deps, { merchantId: visit.merchantId, host, verified: false });
    } catch (error) {
      if (!(error instanceof OperatorError)) throw error;
      return renderList(ctx, visit, 422, { host: input, problem: error.message });
    }
    await kit.audit(ctx, visit, 'domain.added', host);
    kit.redirect(ctx, `${domainPath(host)}?notice=added`);
  });

  router.get('/dashboard/domains/:host', async (ctx) => {
    const visit = await kit.signedIn(ctx, SECTION);
    if (visit === undefined) return;
    const domain = await ownDomain(visit, ctx.params.host ?? '');
    if (domain === undefined) return kit.notFound(ctx, visit);
    await renderDomain(ctx, visit, domain, 200);
  });

  // A page answered to a POST (a refused URL, a revealed secret, a test event) links to its own
  // address in each language: opening one of these addresses shows the domain's page.
  for (const action of ['verify', 'webhook-url', 'webhook-secret/reveal', 'webhook-secret/rotate', 'webhook-test']) {
    router.get(`/dashboard/domains/:host/${action}`, async (ctx) => {
      const lang = kit.query(ctx, 'lang');
      const query = lang === undefined ? '' : `?${new URLSearchParams({ lang }).toString()}`;
      kit.redirect(ctx, `${domainPath(ctx.params.host ?? '')}${query}`);
    });
  }

  router.post('/dashboard/domains/:host/verify', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, SECTION);
    if (visit === undefined) return;
    const domain = await ownDomain(visit, ctx.params.host ?? '');
    if (domain === undefined) return kit.notFound(ctx, visit);
    const m = domainsText(visit.shell);
    const method = kit.field(ctx, 'method');
    if (domain.hosted === 1) return renderDomain(ctx, visit, domain, 422, { error: m.hostedExplain });
    if (method !== 'dns' && method !== 'https') return renderDomain(ctx, visit, domain, 422, {});
    let outcome: Awaited<ReturnType<typeof verifyDomain>>;
    try {
      outcome = await verifyDomain(
        deps,
        { merchantId: visit.merchantId, host: domain.host, method },
        kit.domainVerification,
      );
    } catch (error) {
      if (!(error instanceof OperatorError)) throw error;
      return renderDomain(ctx, visit, domain, 422, { error: m.neverVerifiable });
    }
    if (!outcome.ok) return kit.redirect(ctx, domainPath(domain.host));
    if (domain.verified !== 1) await kit.audit(ctx, visit, 'domain.verified', `${domain.host} (${method})`);
    kit.redirect(ctx, `${domainPath(domain.host)}?notice=verified`);
  });

  router.post('/dashboard/domains/:host/webhook-url', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, SECTION);
    if (visit === undefined) return;
    const domain = await ownDomain(visit, ctx.params.host ?? '');
    if (domain === undefined) return kit.notFound(ctx, visit);
    const m = domainsText(visit.shell);
    const url = kit.field(ctx, 'url').trim();
    const early = url === '' ? m.urlRequired : null;
    if (early !== null) return renderDomain(ctx, visit, domain, 422, { url, urlProblem: early });
    let saved: string | null;
    try {
      saved = (await setWebhookUrl(deps, { merchantId: visit.merchantId, host: domain.host, url })).webhook_url;
    } catch (error) {
      if (!(error instanceof OperatorError)) throw error;
      const problem = urlProblem(m, url, deps.config.allowPrivateWebhooks) ?? error.message;
      return renderDomain(ctx, visit, domain, 422, { url, urlProblem: problem });
    }
    if (saved !== domain.webhook_url) {
      await kit.audit(ctx, visit, 'webhook.url_changed', `${domain.host}: ${maskedUrl(saved ?? '') ?? ''}`);
    }
    kit.redirect(ctx, `${domainPath(domain.host)}?notice=url-saved`);
  });

  router.post('/dashboard/domains/:host/webhook-secret/reveal', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, SECTION);
    if (visit === undefined) return;
    const domain = await ownDomain(visit, ctx.params.host ?? '');
    if (domain === undefined) return kit.notFound(ctx, visit);
    if (!maySeeSecrets(visit.session.user.role)) return kit.forbidden(ctx, visit);
    const secrets = signingSecrets(openWebhookSecrets(deps.sealer, domain.id, domain), deps.clock.nowMs());
    const revealed: RevealedSecrets = { current: secrets[0], next: secrets[1] ?? null };
    await kit.audit(ctx, visit, 'webhook.secret_revealed', domain.host);
    await renderDomain(ctx, visit, domain, 200, { revealed, notice: null });
  });

  router.post('/dashboard/domains/:host/webhook-secret/rotate', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, SECTION);
    if (visit === undefined) return;
    const domain = await ownDomain(visit, ctx.params.host ?? '');
    if (domain === undefined) return kit.notFound(ctx, visit);
    await rotateWebhookSecret(deps, { merchantId: visit.merchantId, host: domain.host });
    await kit.audit(ctx, visit, 'webhook.secret_rotated', domain.host);
    kit.redirect(ctx, `${domainPath(domain.host)}?notice=rotated`);
  });

  router.post('/dashboard/domains/:host/webhook-test', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, SECTION);
    if (visit === undefined) return;
    const domain = await ownDomain(visit, ctx.params.host ?? '');
    if (domain === undefined) return kit.notFound(ctx, visit);
    const m = domainsText(visit.shell);
    if (domain.webhook_url === null) return renderDomain(ctx, visit, domain, 422, { error: m.testNeedsUrl });
    const sentAt = toStoredInstant(deps.clock.nowMs());
    let test: TestOutcome;
    try {
      test = { ...(await sendTestEvent(deps, { merchantId: visit.merchantId, host: domain.host })), sent_at: sentAt };
    } catch (error) {
      if (!(error instanceof OperatorError)) throw error;
      return renderDomain(ctx, visit, domain, 422, { error: error.message });
    }
    await renderDomain(ctx, visit, domain, 200, { test, notice: null });
  });
};

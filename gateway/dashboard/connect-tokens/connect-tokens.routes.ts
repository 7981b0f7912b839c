/**
 * Connect tokens for the store plugins (nav `connect_tokens`):
 *
 * - `GET  /dashboard/connect-tokens`              the tokens (domain, platform, environment, created,
 *                                                 expires, last used); the create form for managers
 * - `POST /dashboard/connect-tokens`              creates a token for a verified store domain and shows
 *                                                 it once with the plugin's install steps (201)
 * - `POST /dashboard/connect-tokens/:id/revoke`   asks to confirm; with `confirm=yes`, revokes it
 *
 * Tokens are created, listed and revoked with the CLI's services (connect-token.service.ts): a
 * revocation moves the account version, so the next request with the token is refused on every
 * instance. Live tokens are refused here until the business is verified.
 */
import { findMerchant } from '../../../storage/merchant.repository.js';
import type { GatewayContext } from '../../api/context.js';
import {
  createConnectToken,
  listConnectTokens,
  revokeConnectToken,
  storeDomainsForTokens,
} from '../../connect/connect-token.service.js';
import { isConnectPlatform } from '../../domain/connect-tokens.js';
import { BusinessNotVerified } from '../../merchants/merchant.service.js';
import type { SectionRoutes, SignedInVisit } from '../kit.js';
import { mayManage } from '../roles.js';
import {
  connectTokensPage,
  connectTokensText,
  createdTokenPage,
  revokeTokenPage,
  type TokenForm,
} from './connect-tokens.pages.js';

const NOTICES = { revoked: 'revoked', 'already-revoked': 'alreadyRevoked' } as const;

export const connectTokensRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;

  const render = async (ctx: GatewayContext, visit: SignedInVisit, status: number, form: TokenForm | null) => {
    const m = connectTokensText(visit.shell);
    const [listed, domains, merchant] = await Promise.all([
      listConnectTokens(deps, visit.merchantId),
      storeDomainsForTokens(deps, visit.merchantId),
      findMerchant(deps.db, visit.merchantId),
    ]);
    const asked = kit.query(ctx, 'notice');
    const noticeKey =
      asked !== undefined && Object.hasOwn(NOTICES, asked) ? NOTICES[asked as keyof typeof NOTICES] : null;
    kit.send(
      ctx,
      visit.shell,
      status,
      connectTokensPage(visit.shell, {
        tokens: [...listed.connect_tokens].reverse(),
        domains,
        businessVerified: merchant?.business_verified === 1,
        manage: mayManage(visit.session.user.role),
        notice: noticeKey === null ? null : m[noticeKey],
        nowMs: deps.clock.nowMs(),
        form: form ?? {
          domain: domains[0] ?? '',
          platform: 'woocommerce',
          environment: 'test',
          problems: {},
          error: null,
        },
      }),
    );
  };

  router.get('/dashboard/connect-tokens', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'connect_tokens');
    if (!visit) return;
    await render(ctx, visit, 200, null);
  });

  router.post('/dashboard/connect-tokens', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'connect_tokens');
    if (!visit) return;
    const m = connectTokensText(visit.shell);
    const domain = kit.field(ctx, 'domain');
    const platform = kit.field(ctx, 'platform');
    const environment = kit.field(ctx, 'environment');
    const domains = await storeDomainsForTokens(deps, visit.merchantId);
    const problems: TokenForm['problems'] = {
      ...(domains.includes(domain) ? {} : { domain: m.chooseDomain }),
      ...(isConnectPlatform(platform) ? {} : { platform: m.choosePlatform }),
      ...(environment === 'test' || environment === 'live' ? {} : { environment: m.chooseEnvironment }),
    };
    const form: TokenForm = { domain, platform, environment, problems, error: null };
    if (Object.keys(problems).length > 0 || !isConnectPlatform(platform)) return render(ctx, visit, 422, form);
    let created: Awaited<ReturnType<typeof createConnectToken>>;
    try {
      created = await createConnectToken(deps, {
        merchantId: visit.merchantId,
        domain,
        platform,
        environment: environment === 'live' ? 'live' : 'test',
        liveNeedsVerifiedBusiness: true,
      });
    } catch (error) {
      if (!(error instanceof BusinessNotVerified)) throw error;
      return render(ctx, visit, 422, { ...form, environment: 'test', error: m.liveNeedsVerification });
    }
    await kit.audit(ctx, visit, 'connect_token.created', `${created.id} (${created.platform}, ${created.domain})`);
    kit.send(
      ctx,
      visit.shell,
      201,
      createdTokenPage(visit.shell, {
        token: created.connect_token,
        domain: created.domain,
        platform: created.platform,
        environment: created.environment,
        expiresAt: created.expires_at,
      }),
    );
  });

  router.post('/dashboard/connect-tokens/:id/revoke', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'connect_tokens');
    if (!visit) return;
    const listed = await listConnectTokens(deps, visit.merchantId);
    const token = listed.connect_tokens.find((t) => t.id === ctx.params.id);
    if (token === undefined) return kit.notFound(ctx, visit);
    if (token.revoked_at !== null) return kit.redirect(ctx, '/dashboard/connect-tokens?notice=already-revoked');
    if (kit.field(ctx, 'confirm') !== 'yes') {
      return kit.send(ctx, visit.shell, 200, revokeTokenPage(visit.shell, token));
    }
    await revokeConnectToken(deps, token.id);
    await kit.audit(ctx, visit, 'connect_token.revoked', `${token.id} (${token.platform}, ${token.domain ?? '-'})`);
    kit.redirect(ctx, '/dashboard/connect-tokens?notice=revoked');
  });
};

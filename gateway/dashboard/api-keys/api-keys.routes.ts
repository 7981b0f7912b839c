/**
 * API keys (nav `api_keys`):
 *
 * - `GET  /dashboard/api-keys`                 the keys (prefix and last four, environment, access,
 *                                              created, last used); the create form for managers
 * - `POST /dashboard/api-keys`                 creates a key and shows it once (201, never redirected)
 * - `POST /dashboard/api-keys/:id/revoke`      asks to confirm; with `confirm=yes`, revokes the key
 *
 * Keys are created and revoked with the CLI's services (`createApiKey`, `revokeApiKey`): a
 * revocation moves the account version, so the next request with the key is refused on every
 * instance. Live keys are refused here until the business is verified.
 */

import { findMerchant } from '../../../storage/merchant.repository.js';
import type { GatewayContext } from '../../api/context.js';
import { type KeyAccess, keyHint, keyLabel } from '../../domain/api-keys.js';
import type { Environment } from '../../domain/payment.js';
import {
  type ApiKeyView,
  BusinessNotVerified,
  createApiKey,
  listApiKeys,
  OperatorError,
  revokeApiKey,
} from '../../merchants/merchant.service.js';
import type { SectionRoutes, SignedInVisit } from '../kit.js';
import { mayManage } from '../roles.js';
import { apiKeysPage, apiKeysText, createdKeyPage, type KeyForm, revokeKeyPage } from './api-keys.pages.js';

const NOTICES = { revoked: 'revoked', 'already-revoked': 'alreadyRevoked' } as const;

export const apiKeysRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;

  const render = async (ctx: GatewayContext, visit: SignedInVisit, status: number, form: KeyForm) => {
    const m = apiKeysText(visit.shell);
    const [keys, merchant] = await Promise.all([
      listApiKeys(deps, visit.merchantId),
      findMerchant(deps.db, visit.merchantId),
    ]);
    const asked = kit.query(ctx, 'notice');
    const noticeKey =
      asked !== undefined && Object.hasOwn(NOTICES, asked) ? NOTICES[asked as keyof typeof NOTICES] : null;
    kit.send(
      ctx,
      visit.shell,
      status,
      apiKeysPage(visit.shell, {
        keys,
        businessVerified: merchant?.business_verified === 1,
        manage: mayManage(visit.session.user.role),
        notice: noticeKey === null ? null : m[noticeKey],
        form,
      }),
    );
  };

  const blankForm: KeyForm = { environment: 'test', access: 'full', problems: {}, error: null };

  router.get('/dashboard/api-keys', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'api_keys');
    if (!visit) return;
    await render(ctx, visit, 200, blankForm);
  });

  router.post('/dashboard/api-keys', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'api_keys');
    if (!visit) return;
    const m = apiKeysText(visit.shell);
    const environment = kit.field(ctx, 'environment');
    const access = kit.field(ctx, 'access');
    const problems: KeyForm['problems'] = {
      ...(environment === 'test' || environment === 'live' ? {} : { environment: m.chooseEnvironment }),
      ...(access === 'full' || access === 'payments' ? {} : { access: m.chooseAccess }),
    };
    const form: KeyForm = { environment, access, problems, error: null };
    if (Object.keys(problems).length > 0) return render(ctx, visit, 422, form);
    let created: Awaited<ReturnType<typeof createApiKey>>;
    try {
      created = await createApiKey(deps, {
        merchantId: visit.merchantId,
        environment: environment as Environment,
        access: access as KeyAccess,
        liveNeedsVerifiedBusiness: true,
      });
    } catch (error) {
      if (!(error instanceof BusinessNotVerified)) throw error;
      return render(ctx, visit, 422, { ...form, environment: 'test', error: m.liveNeedsVerification });
    }
    await kit.audit(ctx, visit, 'api_key.created', keyLabel(keyHint(created.key)));
    kit.send(ctx, visit.shell, 201, createdKeyPage(visit.shell, created));
  });

  router.post('/dashboard/api-keys/:id/revoke', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'api_keys');
    if (!visit) return;
    const keys = await listApiKeys(deps, visit.merchantId);
    const key: ApiKeyView | undefined = keys.find((k) => k.key_id === ctx.params.id);
    if (key === undefined) return kit.notFound(ctx, visit);
    if (key.revoked_at !== null) return kit.redirect(ctx, '/dashboard/api-keys?notice=already-revoked');
    if (kit.field(ctx, 'confirm') !== 'yes') return kit.send(ctx, visit.shell, 200, revokeKeyPage(visit.shell, key));
    try {
      await revokeApiKey(deps, { merchantId: visit.merchantId, keyId: key.key_id });
    } catch (error) {
      // Revoked meanwhile (another tab, the CLI).
      if (error instanceof OperatorError) return kit.redirect(ctx, '/dashboard/api-keys?notice=already-revoked');
      throw error;
    }
    await kit.audit(ctx, visit, 'api_key.revoked', keyLabel(key));
    kit.redirect(ctx, '/dashboard/api-keys?notice=revoked');
  });
};

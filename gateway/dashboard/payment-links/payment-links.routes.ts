/**
 * Payment links (nav `payment_links`):
 *
 * - `GET  /dashboard/payment-links`                    the links of both environments, newest first
 *                                                      (`?page=`), with the create form for managers
 * - `POST /dashboard/payment-links`                    creates a link (422 with the fields named)
 * - `GET  /dashboard/payment-links/:id`                one link: address with a copy button, QR code,
 *                                                      its payments, the deactivate button for managers
 * - `GET  /dashboard/payment-links/:id/qr.png|qr.svg`  the QR code of the link's address, to download
 * - `POST /dashboard/payment-links/:id/deactivate`     deactivates it
 *
 * The same service as the API (gateway/payment-links/payment-link.service.ts); the environment is
 * chosen in the form (live needs a verified business, like live keys).
 */
import QRCode from 'qrcode';
import { findMerchant } from '../../../storage/merchant.repository.js';
import type { GatewayContext } from '../../api/context.js';
import { ApiError } from '../../domain/errors.js';
import {
  createLink,
  deactivateLink,
  findLink,
  listLinksPage,
  parseLinkBody,
} from '../../payment-links/payment-link.service.js';
import type { SectionRoutes, SignedInVisit } from '../kit.js';
import { mayManage } from '../roles.js';
import {
  EMPTY_LINK_FORM,
  type LinkForm,
  linkPath,
  paymentLinkPage,
  paymentLinksPage,
  paymentLinksText,
} from './payment-links.pages.js';

const PER_PAGE = 25;
const LIST_NOTICES = { deactivated: 'deactivatedNotice' } as const;
const DETAIL_NOTICES = {
  created: 'createdNotice',
  deactivated: 'deactivatedNotice',
  'already-inactive': 'alreadyInactive',
} as const;
const WHOLE = /^\d{1,15}$/;
/** `2026-12-31 18:00`: Yerevan time (UTC+4), or UTC when written so (`2026-12-31 14:00 UTC`). */
const EXPIRY = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})( ?UTC)?$/i;

function pick<T extends Record<string, string>>(notices: T, asked: string | undefined): T[keyof T] | null {
  return asked !== undefined && Object.hasOwn(notices, asked) ? (notices[asked] as T[keyof T]) : null;
}

export const paymentLinksRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;

  const renderList = async (ctx: GatewayContext, visit: SignedInVisit, status: number, form: LinkForm) => {
    const m = paymentLinksText(visit.shell);
    const asked = Number(kit.query(ctx, 'page') ?? '1');
    const pageNumber = Number.isSafeInteger(asked) && asked >= 1 && asked <= 1_000_000 ? asked : 1;
    const [page, merchant] = await Promise.all([
      listLinksPage(
        deps,
        { merchantId: visit.merchantId },
        { page: pageNumber, per_page: PER_PAGE },
        { path: `${kit.publicUrl}/dashboard/payment-links`, query: [] },
      ),
      findMerchant(deps.db, visit.merchantId),
    ]);
    const noticeKey = pick(LIST_NOTICES, kit.query(ctx, 'notice'));
    kit.send(
      ctx,
      visit.shell,
      status,
      paymentLinksPage(visit.shell, {
        page,
        manage: mayManage(visit.session.user.role),
        businessVerified: merchant?.business_verified === 1,
        notice: noticeKey === null ? null : m[noticeKey],
        form,
      }),
    );
  };

  router.get('/dashboard/payment-links', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'payment_links');
    if (!visit) return;
    await renderList(ctx, visit, 200, EMPTY_LINK_FORM);
  });

  router.post('/dashboard/payment-links', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'payment_links');
    if (!visit) return;
    const m = paymentLinksText(visit.shell);
    const form: LinkForm = {
      environment: kit.field(ctx, 'environment'),
      amountKind: kit.field(ctx, 'amount_kind'),
      amount: kit.field(ctx, 'amount').trim(),
      amountMin: kit.field(ctx, 'amount_min').trim(),
      amountMax: kit.field(ctx, 'amount_max').trim(),
      description: kit.field(ctx, 'description').trim(),
      reusable: kit.field(ctx, 'reusable'),
      expiresAt: kit.field(ctx, 'expires_at').trim(),
      problems: {},
    };
    const merchant = await findMerchant(deps.db, visit.merchantId);
    const problems: { -readonly [K in keyof LinkForm['problems']]: string } = {};
    if (form.environment !== 'test' && form.environment !== 'live') problems.environment = m.chooseEnvironment;
    else if (form.environment === 'live' && merchant?.business_verified !== 1)
      problems.environment = m.liveNeedsVerification;
    if (form.amountKind !== 'fixed' && form.amountKind !== 'range') problems.amountKind = m.chooseKind;
    if (form.reusable !== 'yes' && form.reusable !== 'no') problems.reusable = m.chooseKind;
    const body: Record<string, unknown> = {
      description: form.description === '' ? null : form.description,
      reusable: form.reusable === 'yes',
    };
    if (form.amountKind === 'fixed') {
      if (WHOLE.test(form.amount)) body.amount = Number(form.amount);
      else problems.amount = m.badAmount;
    } else if (form.amountKind === 'range') {
      if (WHOLE.test(form.amountMin) && WHOLE.test(form.amountMax)) {
        body.amount_min = Number(form.amountMin);
        body.amount_max = Number(form.amountMax);
      } else problems.range = m.badRange;
    }
    if (form.expiresAt !== '') {
      const match = EXPIRY.exec(form.expiresAt);
      if (match === null) problems.expiresAt = m.badExpiry;
      else body.expires_at = `${match[1]}T${match[2]}:00${match[3] === undefined ? '+04:00' : 'Z'}`;
    }
    let parsed: ReturnType<typeof parseLinkBody> | undefined;
    try {
      parsed = parseLinkBody(deps, body);
    } catch (error) {
      if (!(error instanceof ApiError) || error.fieldErrors === undefined) throw error;
      const fields = Object.keys(error.fieldErrors);
      if (fields.includes('amount')) problems.amount ??= problems.range === undefined ? m.badAmount : undefined;
      if (fields.includes('amount_min') || fields.includes('amount_max')) problems.range ??= m.badRange;
      if (fields.includes('description')) problems.description = m.badDescription;
      if (fields.includes('expires_at')) problems.expiresAt ??= m.badExpiry;
      if (Object.keys(problems).length === 0) problems.amount = m.badAmount;
    }
    for (const key of Object.keys(problems) as Array<keyof typeof problems>) {
      if (problems[key] === undefined) delete problems[key];
    }
    if (Object.keys(problems).length > 0 || parsed === undefined) {
      return renderList(ctx, visit, 422, { ...form, problems });
    }
    const created = await createLink(deps, {
      merchantId: visit.merchantId,
      environment: form.environment === 'live' ? 'live' : 'test',
      body: parsed,
    });
    await kit.audit(ctx, visit, 'payment_link.created', created.id);
    kit.redirect(ctx, `${linkPath(created.id)}?notice=created`);
  });

  const lookUp = async (ctx: GatewayContext, visit: SignedInVisit) => {
    const id = ctx.params.id ?? '';
    return /^plink_[A-Za-z0-9_-]{1,40}$/.test(id) ? findLink(deps, { merchantId: visit.merchantId }, id) : undefined;
  };

  router.get('/dashboard/payment-links/:id', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'payment_links');
    if (!visit) return;
    const link = await lookUp(ctx, visit);
    if (link === undefined) return kit.notFound(ctx, visit);
    const m = paymentLinksText(visit.shell);
    const noticeKey = pick(DETAIL_NOTICES, kit.query(ctx, 'notice'));
    const qrDataUrl = await QRCode.toDataURL(link.url, { errorCorrectionLevel: 'M', margin: 2, width: 200 });
    kit.send(
      ctx,
      visit.shell,
      200,
      paymentLinkPage(visit.shell, {
        link,
        qrDataUrl,
        manage: mayManage(visit.session.user.role),
        notice: noticeKey === null ? null : m[noticeKey],
      }),
    );
  });

  router.get('/dashboard/payment-links/:id/qr.:format', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'payment_links');
    if (!visit) return;
    const format = ctx.params.format;
    const link = format === 'png' || format === 'svg' ? await lookUp(ctx, visit) : undefined;
    if (link === undefined) return kit.notFound(ctx, visit);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Disposition', `attachment; filename="${link.id}.${format}"`);
    if (format === 'png') {
      ctx.type = 'image/png';
      ctx.body = await QRCode.toBuffer(link.url, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 512 });
    } else {
      ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'");
      ctx.type = 'image/svg+xml';
      ctx.body = await QRCode.toString(link.url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    }
  });

  router.post('/dashboard/payment-links/:id/deactivate', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'payment_links');
    if (!visit) return;
    const id = ctx.params.id ?? '';
    const result = /^plink_[A-Za-z0-9_-]{1,40}$/.test(id)
      ? await deactivateLink(deps, { merchantId: visit.merchantId }, id)
      : undefined;
    if (result === undefined) return kit.notFound(ctx, visit);
    if (!result.changed) return kit.redirect(ctx, `${linkPath(id)}?notice=already-inactive`);
    await kit.audit(ctx, visit, 'payment_link.deactivated', id);
    kit.redirect(ctx, `${linkPath(id)}?notice=deactivated`);
  });
};

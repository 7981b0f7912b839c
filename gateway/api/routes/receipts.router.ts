/**
 * Fiscal receipts (additions, docs/receipts.md): `POST /api/v1/receipts`, `GET /api/v1/receipts`,
 * `GET /api/v1/receipts/{id}` (full-access keys), and the public page of an issued receipt,
 * `GET /receipts/{token}` (the `qr_url`; no key: the random token is the credential).
 */
import { Router } from '@koa/router';
import { findReceipt, findReceiptByToken } from '../../../storage/receipt.repository.js';
import type { AuthDeps } from '../../auth/authenticate.js';
import { checkIdempotencyKey, IDEMPOTENCY_HEADER } from '../../payments/idempotency.js';
import { receiptLanguage, receiptNotFoundPage, receiptPage } from '../../receipts/receipt-page.js';
import { createReceipt, getReceipt, listAccountReceipts } from '../../receipts/receipts-api.service.js';
import type { GatewayState } from '../context.js';
import { sendIdempotent } from '../idempotent-answer.js';
import { principalOf, requireAuth } from '../middleware/auth.js';
import { jsonBody } from '../middleware/json-body.js';
import { setStaticPageHeaders } from '../page-headers.js';

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

export function receiptsRouter(deps: AuthDeps): Router<GatewayState> {
  const router = new Router<GatewayState>();

  router.post(
    '/api/v1/receipts',
    requireAuth(deps, 'receipts.create'),
    jsonBody(deps.config.bodyLimitBytes),
    async (ctx) => {
      const result = await createReceipt(deps, {
        principal: principalOf(ctx),
        body: ctx.request.body,
        idempotencyKey: checkIdempotencyKey(ctx.get(IDEMPOTENCY_HEADER) || undefined),
      });
      sendIdempotent(ctx, result);
    },
  );

  router.get('/api/v1/receipts', requireAuth(deps, 'receipts.read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await listAccountReceipts(deps, principalOf(ctx), ctx.query);
  });

  router.get('/api/v1/receipts/:id', requireAuth(deps, 'receipts.read'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await getReceipt(deps, principalOf(ctx), ctx.params.id ?? '');
  });

  router.get('/receipts/:token', async (ctx) => {
    const token = ctx.params.token ?? '';
    const row = TOKEN.test(token) ? await findReceiptByToken(deps.db, token) : undefined;
    setStaticPageHeaders(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('Vary', 'Accept-Language');
    const language = receiptLanguage(ctx.query.lang, ctx.get('Accept-Language') || undefined);
    if (row === undefined) {
      ctx.status = 404;
      ctx.body = receiptNotFoundPage(language);
      return;
    }
    const sale = row.sale_receipt_id === null ? undefined : await findReceipt(deps.db, row.sale_receipt_id);
    ctx.body = await receiptPage(row, sale, language);
  });

  return router;
}

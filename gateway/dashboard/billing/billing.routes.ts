/**
 * Billing (nav `billing`), the account's units, through the API's own services:
 *
 * - `GET  /dashboard/billing`                    balances per counter (available, grace floor, state
 *                                                in words), prices, auto top-up summary, links
 * - `GET  /dashboard/billing/ledger`             the ledger, newest first, paged with the API's cursor
 *                                                (`counter`, `cursor`, `per_page` as in the API)
 * - `GET  /dashboard/billing/ledger.csv`         the whole ledger (or one counter's) as CSV, streamed
 *                                                page by page
 * - `GET  /dashboard/billing/buy`                the buy form (owner and admins)
 * - `POST /dashboard/billing/buy`                a purchase: a preset quantity ⇒ 303 to its card
 *                                                payment link; any other ⇒ 303 to the purchase page
 *                                                with the bank transfer's reference and instructions
 * - `GET  /dashboard/billing/purchases`          the latest purchases with their receipts
 * - `GET  /dashboard/billing/purchases/:id`      one purchase
 * - `GET  /dashboard/billing/auto-topup`         auto top-up per counter (forms for owner and admins)
 * - `POST /dashboard/billing/auto-topup/:counter` saves a counter's auto top-up
 *
 * Billing belongs to the account, not to an environment: a purchase made here is recorded as a
 * live-environment request of the account (its idempotency scope), like one made with a live key.
 */
import { Readable } from 'node:stream';
import type { GatewayContext } from '../../api/context.js';
import { ledgerQuerySchema } from '../../api/schemas/billing.schema.js';
import { parseOr422 } from '../../api/schemas/validation.js';
import { configureAutoTopup, readAutoTopups } from '../../billing/auto-topup.service.js';
import { pricing, readBalances, readLedgerPage } from '../../billing/billing.service.js';
import { createPurchase, listPurchases, type PurchaseView, readPurchase } from '../../billing/purchases.service.js';
import { type Counter, isCounter } from '../../domain/billing.js';
import { ApiError } from '../../domain/errors.js';
import type { SectionRoutes, SignedInVisit } from '../kit.js';
import { mayManage } from '../roles.js';
import {
  type AutoTopupForm,
  autoTopupPage,
  type BuyForm,
  balancesPage,
  billingText,
  buyPage,
  ledgerPage,
  purchasePage,
  purchasesPage,
} from './billing.pages.js';
import { LEDGER_CSV_PAGE, ledgerCsv } from './ledger-csv.js';

/** Ledger rows per dashboard page (the API's default is 50). */
export const LEDGER_PAGE_SIZE = 25;
/** Purchases listed on the purchases page. */
export const PURCHASES_LISTED = 100;

const QUANTITY = /^\d{1,7}$/;
const MAX_QUANTITY = 1_000_000;

function wholeNumber(text: string, min: number): number | undefined {
  const trimmed = text.trim();
  if (!QUANTITY.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return value < min || value > MAX_QUANTITY ? undefined : value;
}

export const billingRoutes: SectionRoutes = (router, kit) => {
  const { deps } = kit;
  const rules = () => ({
    presets: deps.config.billing.presetQuantities,
    minimum: deps.config.billing.minPurchase,
    prices: pricing(deps),
  });

  router.get('/dashboard/billing', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'billing');
    if (!visit) return;
    const [balances, autoTopups] = await Promise.all([
      readBalances(deps, visit.merchantId),
      readAutoTopups(deps, visit.merchantId),
    ]);
    kit.send(
      ctx,
      visit.shell,
      200,
      balancesPage(visit.shell, {
        balances,
        prices: pricing(deps),
        autoTopups,
        manage: mayManage(visit.session.user.role),
      }),
    );
  });

  router.get('/dashboard/billing/ledger', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'billing');
    if (!visit) return;
    const asked = {
      counter: kit.query(ctx, 'counter'),
      cursor: kit.query(ctx, 'cursor'),
      per_page: kit.query(ctx, 'per_page') ?? String(LEDGER_PAGE_SIZE),
    };
    const present = Object.fromEntries(Object.entries(asked).filter(([, value]) => value !== undefined));
    const counter = isCounter(asked.counter) ? asked.counter : undefined;
    try {
      const query = parseOr422(ledgerQuerySchema, present, 'query');
      const page = await readLedgerPage(deps, deps.secret, visit.merchantId, query);
      kit.send(
        ctx,
        visit.shell,
        200,
        ledgerPage(visit.shell, {
          entries: page.data,
          counter: query.counter,
          nextCursor: page.next_cursor,
          perPage: query.per_page === LEDGER_PAGE_SIZE ? undefined : query.per_page,
          paged: query.cursor !== undefined,
          error: null,
        }),
      );
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'validation_failed') throw error;
      const m = billingText(visit.shell);
      kit.send(
        ctx,
        visit.shell,
        422,
        ledgerPage(visit.shell, {
          entries: [],
          counter,
          nextCursor: null,
          perPage: undefined,
          paged: true,
          error: m.badCursor,
        }),
      );
    }
  });

  router.get('/dashboard/billing/ledger.csv', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'billing');
    if (!visit) return;
    const asked = kit.query(ctx, 'counter');
    if (asked !== undefined && !isCounter(asked)) return kit.notFound(ctx, visit);
    const counter: Counter | undefined = asked;
    ctx.status = 200;
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Disposition', `attachment; filename="ledger${counter === undefined ? '' : `-${counter}`}.csv"`);
    ctx.type = 'text/csv; charset=utf-8';
    ctx.body = Readable.from(ledgerCsv(deps, visit.merchantId, counter, LEDGER_CSV_PAGE));
  });

  const freshKey = () => deps.ids.uuid(deps.clock.nowMs());

  const renderBuy = (ctx: GatewayContext, visit: SignedInVisit, status: number, form: BuyForm) =>
    kit.send(ctx, visit.shell, status, buyPage(visit.shell, form, rules()));

  router.get('/dashboard/billing/buy', async (ctx) => {
    const visit = await kit.manager(ctx, 'billing');
    if (!visit) return;
    const counter = kit.query(ctx, 'counter');
    renderBuy(ctx, visit, 200, {
      counter: isCounter(counter) ? counter : 'transactions',
      quantity: String(deps.config.billing.presetQuantities[0] ?? deps.config.billing.minPurchase),
      idempotencyKey: freshKey(),
      problems: {},
      error: null,
    });
  });

  router.post('/dashboard/billing/buy', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'billing');
    if (!visit) return;
    const m = billingText(visit.shell);
    const counter = kit.field(ctx, 'counter');
    const quantityText = kit.field(ctx, 'quantity');
    const quantity = wholeNumber(quantityText, 1);
    const form: BuyForm = {
      counter,
      quantity: quantityText,
      idempotencyKey: freshKey(),
      problems: {
        ...(isCounter(counter) ? {} : { counter: m.chooseCounter }),
        ...(quantity === undefined ? { quantity: m.wholeNumber } : {}),
      },
      error: null,
    };
    if (Object.keys(form.problems).length > 0) return renderBuy(ctx, visit, 422, form);
    const sentKey = kit.field(ctx, 'idempotency_key');
    let purchase: PurchaseView;
    let replayed: boolean;
    try {
      const result = await createPurchase(deps, {
        principal: { merchantId: visit.merchantId, environment: 'live' },
        body: { counter, quantity },
        idempotencyKey: /^[\x21-\x7e]{1,255}$/.test(sentKey) ? sentKey : freshKey(),
      });
      replayed = result.replayed;
      const id = (result.body as { id: string }).id;
      const read = await readPurchase(deps, visit.merchantId, id);
      if (read === undefined) throw new Error(`purchase ${id} vanished`);
      purchase = read;
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'VERIFICATION_REQUIRED') return renderBuy(ctx, visit, 403, { ...form, error: 'verification' });
      if (error.code === 'below_minimum') {
        const minimum = Number(error.details.min_quantity ?? deps.config.billing.minPurchase);
        return renderBuy(ctx, visit, 422, { ...form, problems: { quantity: m.atLeast(minimum) } });
      }
      if (error.code !== 'validation_failed') throw error;
      const fields = error.fieldErrors ?? {};
      if (Object.hasOwn(fields, 'Idempotency-Key')) return renderBuy(ctx, visit, 422, { ...form, error: 'resent' });
      return renderBuy(ctx, visit, 422, {
        ...form,
        problems: {
          ...(Object.hasOwn(fields, 'counter') ? { counter: m.chooseCounter } : {}),
          ...(Object.hasOwn(fields, 'quantity') || !Object.hasOwn(fields, 'counter')
            ? { quantity: m.wholeNumber }
            : {}),
        },
      });
    }
    if (!replayed) {
      await kit.audit(
        ctx,
        visit,
        'billing.purchase_created',
        `${purchase.quantity} ${purchase.counter}, ${purchase.method === 'card' ? 'card' : `bank transfer ${purchase.reference ?? ''}`}`,
      );
    }
    if (purchase.method === 'card' && purchase.status === 'pending' && purchase.checkout_url !== null) {
      const path = purchase.checkout_url.startsWith(kit.publicUrl)
        ? purchase.checkout_url.slice(kit.publicUrl.length)
        : purchase.checkout_url;
      return kit.redirect(ctx, path);
    }
    kit.redirect(ctx, `/dashboard/billing/purchases/${purchase.id}?notice=created`);
  });

  router.get('/dashboard/billing/purchases', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'billing');
    if (!visit) return;
    const purchases = await listPurchases(deps, visit.merchantId, PURCHASES_LISTED);
    kit.send(ctx, visit.shell, 200, purchasesPage(visit.shell, purchases));
  });

  router.get('/dashboard/billing/purchases/:id', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'billing');
    if (!visit) return;
    const purchase = await readPurchase(deps, visit.merchantId, ctx.params.id ?? '');
    if (purchase === undefined) return kit.notFound(ctx, visit);
    const m = billingText(visit.shell);
    const created = kit.query(ctx, 'notice') === 'created' && purchase.method === 'bank_transfer';
    kit.send(
      ctx,
      visit.shell,
      200,
      purchasePage(visit.shell, purchase, {
        bankDetails: deps.config.billing.bankTransferDetails,
        notice: created && purchase.status === 'pending' ? m.createdNotice : null,
        manage: mayManage(visit.session.user.role),
      }),
    );
  });

  const renderAutoTopup = async (
    ctx: GatewayContext,
    visit: SignedInVisit,
    status: number,
    failed: { counter: Counter; form: AutoTopupForm } | null,
  ) => {
    const m = billingText(visit.shell);
    kit.send(
      ctx,
      visit.shell,
      status,
      autoTopupPage(visit.shell, {
        settings: await readAutoTopups(deps, visit.merchantId),
        manage: mayManage(visit.session.user.role),
        notice: failed === null && kit.query(ctx, 'notice') === 'saved' ? m.saved : null,
        failed,
        presets: deps.config.billing.presetQuantities,
        minimum: deps.config.billing.minPurchase,
      }),
    );
  };

  router.get('/dashboard/billing/auto-topup', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'billing');
    if (!visit) return;
    await renderAutoTopup(ctx, visit, 200, null);
  });

  router.post('/dashboard/billing/auto-topup/:counter', kit.formGuard, async (ctx) => {
    const visit = await kit.manager(ctx, 'billing');
    if (!visit) return;
    const counter = ctx.params.counter ?? '';
    if (!isCounter(counter)) return kit.notFound(ctx, visit);
    const m = billingText(visit.shell);
    const enabled = kit.field(ctx, 'enabled') === 'on';
    const thresholdText = kit.field(ctx, 'threshold_qty');
    const refillText = kit.field(ctx, 'refill_qty');
    const threshold = wholeNumber(thresholdText, 0);
    const refill = wholeNumber(refillText, 0);
    const form: AutoTopupForm = {
      enabled,
      threshold: thresholdText,
      refill: refillText,
      problems: {
        ...(threshold === undefined ? { threshold_qty: m.wholeNumberFromZero } : {}),
        ...(refill === undefined ? { refill_qty: m.wholeNumberFromZero } : {}),
      },
    };
    if (threshold === undefined || refill === undefined) return renderAutoTopup(ctx, visit, 422, { counter, form });
    // The reserved payment method id (set through the API only) is kept as it is.
    const current = (await readAutoTopups(deps, visit.merchantId)).find((a) => a.counter === counter)?.setting;
    let saved: Awaited<ReturnType<typeof configureAutoTopup>>;
    try {
      saved = await configureAutoTopup(deps, { merchantId: visit.merchantId }, counter, {
        enabled,
        threshold_qty: threshold,
        refill_qty: refill,
        payment_method_id: current?.payment_method_id ?? null,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'validation_failed') throw error;
      const fields = error.fieldErrors ?? {};
      const minimum = deps.config.billing.minPurchase;
      return renderAutoTopup(ctx, visit, 422, {
        counter,
        form: {
          ...form,
          problems: {
            ...(Object.hasOwn(fields, 'threshold_qty') ? { threshold_qty: m.wholeNumberFromZero } : {}),
            ...(Object.hasOwn(fields, 'refill_qty') ? { refill_qty: m.atLeast(minimum) } : {}),
          },
        },
      });
    }
    await kit.audit(
      ctx,
      visit,
      'billing.auto_topup_changed',
      `${counter}: ${saved.enabled ? 'on' : 'off'}, threshold ${saved.threshold_qty}, refill ${saved.refill_qty}`,
    );
    kit.redirect(ctx, '/dashboard/billing/auto-topup?notice=saved');
  });
};

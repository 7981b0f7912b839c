/**
 * The customers pages, read-only for every role: `GET /dashboard/customers[?env=&q=&page=]` and
 * `GET /dashboard/customers/:customer_id[?env=&page=]`. Records come from the same service as
 * `GET /api/v1/customers` (gateway/customers/customer.service.ts), scoped by the visit's account and
 * the chosen environment: an id of another account or environment is the 404 page.
 */
import { listCustomerTotals } from '../../../storage/customer-total.repository.js';
import { customerPayments, findCustomer } from '../../customers/customer.service.js';
import type { SectionRoutes } from '../kit.js';
import { CUSTOMERS_PER_PAGE, customerPage, customersPage } from './customers.pages.js';
import { environmentOf } from './environment.js';

/** `page` of the query: a whole number from 1, else 1. */
export function pageOf(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,6}$/.test(raw)) return 1;
  return Math.max(Number(raw), 1);
}

export const customersRoutes: SectionRoutes = (router, kit) => {
  router.get('/dashboard/customers', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'customers');
    if (!visit) return;
    const env = environmentOf(kit.query(ctx, 'env'));
    const search = (kit.query(ctx, 'q') ?? '').trim().slice(0, 255);
    const page = pageOf(kit.query(ctx, 'page'));
    const filter = search === '' ? {} : search.includes('@') ? { email: search } : { id: search };
    const { customers, total } = await listCustomerTotals(
      kit.deps.db,
      { merchantId: visit.merchantId, environment: env },
      filter,
      { offset: (page - 1) * CUSTOMERS_PER_PAGE, limit: CUSTOMERS_PER_PAGE },
    );
    kit.send(ctx, visit.shell, 200, customersPage(visit.shell, { env, search, customers, page, total }));
  });

  router.get('/dashboard/customers/:customer_id', async (ctx) => {
    const visit = await kit.signedIn(ctx, 'customers');
    if (!visit) return;
    const env = environmentOf(kit.query(ctx, 'env'));
    const scope = { merchantId: visit.merchantId, environment: env };
    const customer = await findCustomer(kit.deps, scope, ctx.params.customer_id ?? '');
    if (customer === undefined) return kit.notFound(ctx, visit);
    const page = pageOf(kit.query(ctx, 'page'));
    const payments = await customerPayments(kit.deps, scope, customer.id, {
      offset: (page - 1) * CUSTOMERS_PER_PAGE,
      limit: CUSTOMERS_PER_PAGE,
    });
    kit.send(ctx, visit.shell, 200, customerPage(visit.shell, { env, customer, payments, page }));
  });
};

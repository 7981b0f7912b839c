/**
 * Screenshots of the customers pages: a few sandbox payments of named buyers (made once, through
 * the API with a test key), then the test environment's list, a search by email and a customer's page.
 */
import { createApiKey } from '../../gateway/merchants/merchant.service.js';
import type { SectionShots, SectionShotsContext } from './shot.js';

const BUYERS = [
  { email: 'ani.petrosyan@example.am', name: 'Ani Petrosyan', amounts: [12_500, 4_800] },
  { email: 'gor.sargsyan@example.am', name: 'Gor Sargsyan', amounts: [27_000] },
  { email: 'lilit.hakobyan@example.am', name: 'Lilit Hakobyan', amounts: [3_200, 6_400, 1_900] },
] as const;

/** Paid sandbox payments of the buyers above on the owner's account, made on the first call only (other walks make payments of their own). */
export async function ensureSandboxPayments({ deps, merchantId, publicUrl }: SectionShotsContext): Promise<void> {
  const existing = await deps.db
    .selectFrom('customer_totals')
    .select('customer_id')
    .where('merchant_id', '=', merchantId)
    .where('environment', '=', 'test')
    .where('email', '=', BUYERS[0].email)
    .executeTakeFirst();
  if (existing !== undefined) return;
  const { key } = await createApiKey(deps, { merchantId, environment: 'test', access: 'full' });
  const headers = { 'X-Service-Key': key, 'Content-Type': 'application/json' };
  let order = 1040;
  for (const buyer of BUYERS) {
    for (const amount of buyer.amounts) {
      order += 1;
      const created = await fetch(`${publicUrl}/api/v1/payments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          amount,
          order_id: `order-${order}`,
          return_url: 'https://ararat-books.am/thanks',
          customer_email: buyer.email,
          customer_name: buyer.name,
        }),
      });
      if (created.status !== 201) throw new Error(`payment not created: ${await created.text()}`);
      const { uuid } = (await created.json()) as { uuid: string };
      const paid = await fetch(`${publicUrl}/api/v1/test_helpers/payments/${uuid}/pay`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ card_number: '4111 1111 1111 1111' }),
      });
      if (paid.status !== 200) throw new Error(`payment not paid: ${await paid.text()}`);
    }
  }
}

export const customersShots: SectionShots = async (context) => {
  const { page, shoot, publicUrl } = context;
  await ensureSandboxPayments(context);
  await page.goto(`${publicUrl}/dashboard/customers?env=test`);
  await shoot('customers');
  await page.getByLabel('Customer id or email').fill(BUYERS[2].email);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByText(BUYERS[2].name).waitFor();
  await shoot('customers-search');
  await page.locator('a[href^="/dashboard/customers/"]').first().click();
  await page.getByRole('heading', { name: /^Customer / }).waitFor();
  await shoot('customer');
};

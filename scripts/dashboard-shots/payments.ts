/**
 * The Payments section's screenshots: a few test payments made through the API (one paid with the
 * test card), the list, a search by order id finding the completed one, the export's progress
 * after a download, and the list in Russian.
 */
import { createApiKey } from '../../gateway/merchants/merchant.service.js';
import type { SectionShots } from './shot.js';

export const paymentsShots: SectionShots = async ({ page, shoot, publicUrl, deps, merchantId, size }) => {
  const { key } = await createApiKey(deps, { merchantId, environment: 'test', access: 'full' });
  const api = async (path: string, body: Record<string, unknown>) => {
    const response = await fetch(`${publicUrl}/api/v1${path}`, {
      method: 'POST',
      headers: { 'X-Service-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { uuid: string };
  };
  const orders = [`book-${size}-1041`, `book-${size}-1042`, `book-${size}-1043`];
  const made = [];
  for (const [i, orderId] of orders.entries()) {
    made.push(
      await api('/payments', {
        amount: 12_500 + i * 4_000,
        order_id: orderId,
        return_url: 'http://localhost:3000/done',
        customer_email: `anna.${i}@example.am`,
      }),
    );
  }
  await api(`/test_helpers/payments/${made[1]?.uuid}/pay`, { card_number: '4242424242424242' });
  await page.goto(`${publicUrl}/dashboard/payments?env=test&lang=en`);
  await shoot('payments-list');
  await page.getByLabel('Search', { exact: true }).fill(orders[1] as string);
  await page.getByRole('button', { name: 'Show payments' }).click();
  await page.locator('table.pay-table').waitFor();
  await shoot('payments-search');
  await page.goto(`${publicUrl}/dashboard/payments?env=test&lang=en`);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  await download;
  await page.locator('#pay-export-status').getByText('Done:').waitFor();
  await shoot('payments-export');
  await page.goto(`${publicUrl}/dashboard/payments?env=test&lang=ru`);
  await shoot('payments-russian');
  await page.goto(`${publicUrl}/dashboard/account?lang=en`);
};

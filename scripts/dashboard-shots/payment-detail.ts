/**
 * Screenshots of a payment's page: a sandbox payment paid with the test card (through the test
 * helper), with its event, a refused refund, a partial refund's confirmation (in English, Armenian
 * and Russian), and the page after the refund.
 */
import { createApiKey } from '../../gateway/merchants/merchant.service.js';
import type { SectionShots } from './shot.js';

export const paymentDetailShots: SectionShots = async ({ page, shoot, publicUrl, deps, merchantId }) => {
  const { key } = await createApiKey(deps, { merchantId, environment: 'test', access: 'full' });
  const call = async (path: string, body: unknown): Promise<Record<string, unknown>> => {
    const response = await fetch(`${publicUrl}${path}`, {
      method: 'POST',
      headers: { 'X-Service-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const created = await call('/api/v1/payments', {
    amount: 5000,
    order_id: `order-${Date.now().toString(36)}`,
    description: 'Two books and a map',
    return_url: 'https://ararat-books.am/done',
  });
  const uuid = String(created.uuid);
  await call(`/api/v1/test_helpers/payments/${uuid}/pay`, { card_number: '4111 1111 1111 1111' });

  // The refund confirmation in Armenian and Russian (left unconfirmed), then the English walk.
  for (const [lang, name] of [
    ['hy', 'armenian'],
    ['ru', 'russian'],
  ] as const) {
    await page.goto(`${publicUrl}/dashboard/payments/${uuid}?lang=${lang}`);
    await page.locator('input[name="amount"]').fill('1500');
    await page.locator('form[action$="/refund"] button[type="submit"]').click();
    await page.locator('[data-testid="refund-question"]').waitFor();
    await shoot(`payment-refund-confirm-${name}`);
  }
  await page.goto(`${publicUrl}/dashboard/payments/${uuid}?lang=en`);
  await shoot('payment-detail');
  // A refused refund: said at the top of the page, linked to the field at its bottom.
  await page.getByLabel('Amount to refund (AMD)').fill('999999');
  await page.getByRole('button', { name: 'Continue to confirm' }).click();
  await page.getByTestId('refund-problems').waitFor();
  await shoot('payment-refund-refused');
  await page.getByLabel('Amount to refund (AMD)').fill('1500');
  await page.getByLabel('Reason (optional)').fill('One book returned');
  await page.getByRole('button', { name: 'Continue to confirm' }).click();
  await page.getByRole('heading', { name: 'Confirm the refund' }).waitFor();
  await shoot('payment-refund-confirm');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByText('The refund went through.').waitFor();
  await shoot('payment-detail-refunded');
};

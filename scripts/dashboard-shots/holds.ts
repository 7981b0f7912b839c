/**
 * Screenshots of holds: a manual sandbox payment held by the test card (through the test helper) on
 * its page in English, Armenian and Russian, the confirmation of a partial capture, the page once
 * captured, and the payments list's Uncaptured filter with the two holds left.
 */
import { createApiKey } from '../../gateway/merchants/merchant.service.js';
import type { SectionShots } from './shot.js';

export const holdsShots: SectionShots = async ({ page, shoot, publicUrl, deps, merchantId, size }) => {
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
  const held = async (orderId: string, amount: number): Promise<string> => {
    const created = await call('/api/v1/payments', {
      amount,
      order_id: orderId,
      description: 'Camera rental, 3 days (deposit held)',
      return_url: 'https://ararat-books.am/done',
      capture_method: 'manual',
    });
    const uuid = String(created.uuid);
    await call(`/api/v1/test_helpers/payments/${uuid}/pay`, { card_number: '4111 1111 1111 1111' });
    return uuid;
  };
  const first = await held(`rental-${size}-2031`, 40_000);
  await held(`rental-${size}-2032`, 25_000);
  await held(`rental-${size}-2033`, 60_000);

  for (const [lang, name] of [
    ['hy', '-armenian'],
    ['ru', '-russian'],
    ['en', ''],
  ] as const) {
    await page.goto(`${publicUrl}/dashboard/payments/${first}?lang=${lang}`);
    await page.locator('#hold').waitFor();
    await shoot(`payment-hold${name}`);
  }
  await page.getByLabel('Amount to capture (AMD)').fill('32000');
  await page.getByRole('button', { name: 'Continue to capture' }).click();
  await page.getByRole('heading', { name: 'Confirm the capture' }).waitFor();
  await shoot('payment-capture-confirm');
  await page.getByRole('button', { name: 'Capture', exact: true }).click();
  await page.getByText('The capture went through.').waitFor();
  await shoot('payment-hold-captured');

  await page.goto(`${publicUrl}/dashboard/payments?env=test&status=authorized&lang=en`);
  await page.locator('table.pay-table').waitFor();
  await shoot('payments-uncaptured');
};

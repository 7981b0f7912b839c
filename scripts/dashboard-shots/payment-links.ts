/**
 * Screenshots of the payment links pages: the empty list with the create form, a refused form, a
 * new link with its address and QR code, the buyer's page, the link once paid, and the list.
 */
import type { SectionShots } from './shot.js';

export const paymentLinksShots: SectionShots = async ({ page, shoot, publicUrl }) => {
  await page.goto(`${publicUrl}/dashboard/payment-links`);
  await shoot('payment-links');
  await page.locator('#f-amount').fill('12.5');
  await page.getByRole('button', { name: 'Create the link' }).click();
  await page.locator('#f-amount-error').waitFor();
  await shoot('payment-links-invalid');
  await page.locator('#f-amount').fill('4500');
  await page.getByLabel('Description (optional)').fill('Pottery workshop');
  await page.getByRole('button', { name: 'Create the link' }).click();
  await page.getByText('The payment link was created.').waitFor();
  await shoot('payment-link-created');
  const url = ((await page.locator('#link-url').textContent()) ?? '').trim();
  const detail = page.url().replace(/\?.*$/, '');

  await page.goto(url);
  await shoot('payment-link-buyer');
  await page.getByRole('button', { name: /^Pay / }).click();
  await page.waitForURL(/\/checkout\//);
  await page.locator('input[name="processor"][value="sandbox"]').check();
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/sandbox$/);
  await page.locator('#card_number').fill('4111 1111 1111 1111');
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL(/\/thanks/, { timeout: 30_000 });
  await shoot('payment-link-thanks');
  await page.goto(url);
  await shoot('payment-link-paid-refused');

  await page.goto(detail);
  await shoot('payment-link-paid');
  await page.goto(`${publicUrl}/dashboard/payment-links`);
  await shoot('payment-links-list');
};

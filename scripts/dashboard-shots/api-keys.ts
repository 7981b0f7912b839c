/**
 * Screenshots of the API keys and connect tokens pages: the keys, a new key shown once, a connect
 * token created for a verified domain with its install steps, and the tokens.
 */
import { addDomain } from '../../gateway/merchants/merchant.service.js';
import type { SectionShots } from './shot.js';

export const apiKeysShots: SectionShots = async ({ page, shoot, publicUrl, deps, merchantId, size }) => {
  await page.goto(`${publicUrl}/dashboard/api-keys`);
  await shoot('api-keys');
  await page.getByLabel('Payments only').check();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('heading', { name: 'Your new key' }).waitFor();
  await shoot('api-key-created');

  const host = `ararat-books-${size}.am`;
  await addDomain(deps, { merchantId, host, verified: true });
  await page.goto(`${publicUrl}/dashboard/connect-tokens`);
  await page.getByLabel('Domain').selectOption(host);
  await page.getByLabel('WooCommerce').check();
  await page.getByRole('button', { name: 'Create token' }).click();
  await page.getByRole('heading', { name: 'Your new connect token' }).waitFor();
  await shoot('connect-token-created');
  await page.goto(`${publicUrl}/dashboard/connect-tokens`);
  await shoot('connect-tokens');
};

/**
 * The Billing section's screenshots: the balances, the buy form, a bank-transfer purchase with its
 * reference and instructions, the balances after the transfer is credited (as
 * `bin/gateway purchase credit` does), the ledger, the purchases, auto top-up, and the balances in
 * Armenian and Russian, and the purchases in Armenian and Russian.
 */
import { creditBankTransfer } from '../../gateway/billing/purchases.service.js';
import { verifyBusiness } from '../../gateway/merchants/merchant.service.js';
import type { SectionShots } from './shot.js';

export const billingShots: SectionShots = async ({ page, shoot, publicUrl, deps, merchantId }) => {
  await verifyBusiness(deps, merchantId);
  await page.goto(`${publicUrl}/dashboard/billing?lang=en`);
  await shoot('billing-balances');
  await page.getByRole('link', { name: 'Buy transactions units' }).click();
  await page.getByRole('heading', { name: 'Buy units', level: 1 }).waitFor();
  await shoot('billing-buy');
  await page.getByLabel('Quantity (units)').fill('300');
  await page.getByRole('button', { name: 'Buy' }).click();
  await page.locator('#transfer-reference').waitFor();
  await shoot('billing-bank-transfer');
  const reference = ((await page.locator('#transfer-reference').textContent()) ?? '').trim();
  await creditBankTransfer(deps, reference);
  await page.goto(`${publicUrl}/dashboard/billing`);
  await shoot('billing-credited');
  await page.goto(`${publicUrl}/dashboard/billing/ledger`);
  await shoot('billing-ledger');
  await page.goto(`${publicUrl}/dashboard/billing/purchases`);
  await shoot('billing-purchases');
  await page.goto(`${publicUrl}/dashboard/billing/auto-topup`);
  await shoot('billing-auto-topup');
  await page.goto(`${publicUrl}/dashboard/billing?lang=hy`);
  await shoot('billing-armenian');
  await page.goto(`${publicUrl}/dashboard/billing?lang=ru`);
  await shoot('billing-russian');
  await page.goto(`${publicUrl}/dashboard/billing/purchases?lang=hy`);
  await shoot('billing-purchases-armenian');
  await page.goto(`${publicUrl}/dashboard/billing/purchases?lang=ru`);
  await shoot('billing-purchases-russian');
  await page.goto(`${publicUrl}/dashboard/billing?lang=en`);
};

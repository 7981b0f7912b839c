/**
 * Screenshots of business verification: the empty form, the form with its problems, the request
 * being checked, and a rejection with its reason (made as the operator's `business reject` does).
 */
import { rejectBusinessVerification } from '../../gateway/merchants/business-review.js';
import { samplePdf } from '../../test/dashboard/business-support.js';
import type { SectionShots } from './shot.js';

export const businessShots: SectionShots = async ({ page, shoot, publicUrl, deps, merchantId }) => {
  await page.goto(`${publicUrl}/dashboard/business`);
  await shoot('business-form');
  await page.getByLabel('Legal name').fill('Ararat Books LLC');
  await page.getByLabel('Tax id (TIN)').fill('0251234');
  await page.getByLabel('Legal address').fill('5 Abovyan St, Yerevan 0001');
  await page.getByLabel('Contact phone').fill('+374 10 12345');
  await page.getByRole('button', { name: 'Send for verification' }).click();
  await page.getByText('A TIN is exactly 8 digits.').waitFor();
  await shoot('business-form-problems');
  await page.getByLabel('Tax id (TIN)').fill('02512345');
  await page.getByLabel('Contact phone').fill('+374 10 123456');
  await page
    .locator('#f-documents')
    .setInputFiles([{ name: 'state-register-extract.pdf', mimeType: 'application/pdf', buffer: samplePdf() }]);
  await page.getByRole('button', { name: 'Send for verification' }).click();
  await page.getByText('Your request is sent.').waitFor();
  await shoot('business-pending');
  await rejectBusinessVerification(
    deps,
    merchantId,
    'The state register extract is older than 30 days: send a recent one.',
  );
  await page.goto(`${publicUrl}/dashboard/business`);
  await shoot('business-rejected');
};

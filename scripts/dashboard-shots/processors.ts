/**
 * The Processors section's screenshots: the overview, a verified domain's page before anything is
 * enabled (why live payments would be refused), the sandbox installed, Idram's settings form (a
 * mistake shown by field), and the domain with Idram configured.
 */
import { addDomain } from '../../gateway/merchants/merchant.service.js';
import type { SectionShots } from './shot.js';

export const processorsShots: SectionShots = async (ctx) => {
  const { page, shoot, publicUrl } = ctx;
  const host = `books-${ctx.size}.example.am`;
  await addDomain(ctx.deps, { merchantId: ctx.merchantId, host, verified: true });
  const domainPage = `${publicUrl}/dashboard/domains/${host}/processors`;

  await page.goto(`${publicUrl}/dashboard/processors`);
  await shoot('processors-overview');

  await page.goto(domainPage);
  await shoot('processors-domain-none');
  await page.getByRole('button', { name: 'Install Sandbox (test cards)' }).click();
  await page.getByText('Sandbox (test cards) is enabled.').waitFor();
  await shoot('processors-domain-sandbox');

  await page.goto(`${domainPage}/idram`);
  await shoot('processors-settings');
  await page.getByLabel('IdramID (EDP_REC_ACCOUNT)').fill('IDRAM-1');
  await page.getByLabel('Secret key (SECRET_KEY)').fill('screenshot-secret-key');
  await page.getByRole('button', { name: 'Save settings and enable' }).click();
  await page.getByText('must be the digits of an IdramID').waitFor();
  await shoot('processors-settings-problem');
  await page.getByLabel('IdramID (EDP_REC_ACCOUNT)').fill('110000601');
  await page.getByLabel('Secret key (SECRET_KEY)').fill('screenshot-secret-key');
  await page.getByRole('button', { name: 'Save settings and enable' }).click();
  await page.getByText('Idram settings were saved, and it is enabled.').waitFor();
  await page.getByRole('button', { name: 'Move Idram up' }).click();
  await page.getByText('The checkout order was changed.').waitFor();
  await shoot('processors-domain');
};

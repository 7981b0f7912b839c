/**
 * The Domains section's screenshots: the list with the hosted domain, a domain just added with
 * what to publish, a check that failed and why (the walk's domain is under the reserved `.example`
 * name, so no check can pass), the webhook settings with the secret revealed and a rotation's
 * countdown, a test event's outcome, and the list in Armenian.
 */
import type { SectionShots } from './shot.js';

export const domainsShots: SectionShots = async ({ page, shoot, publicUrl, size }) => {
  const host = `shop-${size}.ararat-books.example`;
  await page.goto(`${publicUrl}/dashboard/domains?lang=en`);
  await shoot('domains-list');
  await page.getByLabel('Domain', { exact: true }).fill(host);
  await page.getByRole('button', { name: 'Add domain' }).click();
  await page.getByRole('heading', { name: host }).waitFor();
  await shoot('domains-added');
  await page.getByRole('button', { name: 'Check DNS record' }).click();
  await page.locator('.check-failure').waitFor();
  await shoot('domains-check-failed');
  await page.getByLabel('Webhook URL', { exact: true }).fill('https://ararat-books.example/webhooks');
  await page.getByRole('button', { name: 'Save webhook URL' }).click();
  await page.getByText('The webhook URL is saved.').waitFor();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await page.locator('#rotation-countdown').waitFor();
  await page.getByRole('button', { name: 'Reveal secret' }).click();
  await page.locator('#webhook-secret').waitFor();
  await shoot('domains-webhook-secret');
  await page.getByRole('button', { name: 'Send a test event' }).click();
  await page.locator('#test-status').waitFor();
  await shoot('domains-test-event');
  await page.goto(`${publicUrl}/dashboard/domains?lang=hy`);
  await shoot('domains-armenian');
  await page.goto(`${publicUrl}/dashboard/domains?lang=en`);
};

/**
 * The Processors section in headless Chromium (SQLite): from the overview to a verified domain's
 * page, install the sandbox, configure Idram through its generated form (a mistake first), move it
 * up the checkout's order. Every page passes axe-core (no serious or critical violation) at 1280px
 * and at 375px, where nothing is wider than the phone.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDomain } from '../../gateway/merchants/merchant.service.js';
import { listEnabledProcessors } from '../../storage/checkout.repository.js';
import { findMerchantDomain } from '../../storage/domain.repository.js';
import { uniqueHost } from '../support/gateway.js';
import {
  type DashboardBrowser,
  expectAccessible,
  expectFitsWidth,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, PASSWORD, signUpAndConfirm, uniqueEmail } from './support.js';

const SECRET = 'IdramSecret-browser-77c1';

describe('dashboard processors in the browser (sqlite)', () => {
  let b: DashboardBrowser;
  let g: DashboardGateway;
  let email: string;
  let merchantId: string;
  const host = uniqueHost('books');

  beforeAll(async () => {
    b = await startDashboardBrowser('sqlite');
    g = b.g;
    email = uniqueEmail();
    await signUpAndConfirm(g, email);
    const user = await g.t.gateway.deps.db
      .selectFrom('dashboard_users')
      .select('merchant_id')
      .where('email', '=', email)
      .executeTakeFirstOrThrow();
    merchantId = user.merchant_id;
    await addDomain(g.t.gateway.deps, { merchantId, host, verified: true });
  }, 120_000);
  afterAll(() => b?.close());

  async function open(width: number, height: number): Promise<Page> {
    const page = await b.open(width, height);
    page.setDefaultTimeout(30_000);
    await signInThroughForm(page, g.t.url, email, PASSWORD, { landing: null });
    await page.waitForURL(/\/dashboard$/);
    return page;
  }

  const order = async () => {
    const domain = await findMerchantDomain(g.t.gateway.deps.db, merchantId, host);
    return listEnabledProcessors(g.t.gateway.deps.db, domain?.id ?? '');
  };

  it('installs the sandbox, configures Idram and reorders the checkout', async () => {
    const page = await open(1280, 900);
    await page.getByRole('link', { name: 'Processors', exact: true }).click();
    await page.getByRole('heading', { name: 'Processors', exact: true }).waitFor();
    await expectAccessible(page, { phone: false });

    await page.getByRole('link', { name: `Manage processors ${host}` }).click();
    await page.getByRole('heading', { name: `Processors of ${host}` }).waitFor();
    await page
      .getByText('every live payment for this domain is refused with the error no_payment_method_configured')
      .waitFor();
    await expectAccessible(page, { phone: false });

    await page.getByRole('button', { name: 'Install Sandbox (test cards)' }).click();
    await page.getByText('Sandbox (test cards) is enabled.').waitFor();
    await expectAccessible(page, { phone: false });
    expect(await order()).toEqual(['sandbox']);

    await page.getByRole('link', { name: 'Configure Idram' }).click();
    await page.getByRole('heading', { name: `Idram on ${host}` }).waitFor();
    await expectAccessible(page, { phone: false });
    await page.getByLabel('IdramID (EDP_REC_ACCOUNT)').fill('not digits');
    await page.getByLabel('Secret key (SECRET_KEY)').fill(SECRET);
    await page.getByRole('button', { name: 'Save settings and enable' }).click();
    await page.getByText('This value is not accepted: must be the digits of an IdramID').waitFor();
    expect(await page.content()).not.toContain(SECRET);
    await expectAccessible(page, { phone: false });

    await page.getByLabel('IdramID (EDP_REC_ACCOUNT)').fill('110000601');
    await page.getByLabel('Secret key (SECRET_KEY)').fill(SECRET);
    await page.getByRole('button', { name: 'Save settings and enable' }).click();
    await page.getByText('Idram settings were saved, and it is enabled.').waitFor();
    expect(await page.content()).not.toContain(SECRET);
    expect(await page.getByText('no_payment_method_configured').count()).toBe(0);
    await expectAccessible(page, { phone: false });
    expect(await order()).toEqual(['sandbox', 'idram']);

    await page.getByRole('button', { name: 'Move Idram up' }).click();
    await page.getByText('The checkout order was changed.').waitFor();
    await expectAccessible(page, { phone: false });
    expect(await order()).toEqual(['idram', 'sandbox']);
    const listed = await page.locator('#checkout-order li .proc-name').allTextContents();
    expect(listed).toEqual(['Idram', 'Sandbox (test cards)']);
  }, 120_000);

  it('fits a 375px phone', async () => {
    const page = await open(375, 812);
    for (const path of [
      '/dashboard/processors',
      `/dashboard/domains/${host}/processors`,
      `/dashboard/domains/${host}/processors/ameria`,
    ]) {
      await page.goto(`${g.t.url}${path}`);
      await expectAccessible(page, { phone: false });
      await expectFitsWidth(page, 375);
    }
  }, 120_000);
});

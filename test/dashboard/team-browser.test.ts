/**
 * Team and audit log in headless Chromium (SQLite): the owner invites a viewer from the Team page;
 * the viewer opens the mailed link in another browser, chooses a password, lands on the Team page
 * signed in, read-only; the owner reads the audit log. Every page passes axe-core (no serious or
 * critical violation) at desktop width and at 375px, without sideways scrolling.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from '../support/axe.js';
import { launchBrowser, newPage, type TestPage } from '../support/browser.js';
import { freePort } from '../support/ports.js';
import {
  type DashboardGateway,
  linkIn,
  mailTo,
  PASSWORD,
  signUpAndConfirm,
  startDashboardGateway,
  uniqueEmail,
} from './support.js';

describe('team and audit log in the browser (sqlite)', () => {
  let g: DashboardGateway;
  let browser: Browser;
  const pages: TestPage[] = [];

  beforeAll(async () => {
    const port = await freePort();
    g = await startDashboardGateway('sqlite', { env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` } });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    for (const page of pages) await page.close().catch(() => {});
    await browser?.close().catch(() => {});
    await g?.close();
  });

  async function open(): Promise<Page> {
    const testPage = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    testPage.context.setDefaultTimeout(30_000);
    testPage.context.setDefaultNavigationTimeout(30_000);
    pages.push(testPage);
    return testPage.page;
  }

  /** axe at desktop width, then at 375px (no sideways scrolling), then back. */
  async function expectAccessible(page: Page): Promise<void> {
    expect(await seriousViolations(page), page.url()).toEqual([]);
    await page.setViewportSize({ width: 375, height: 812 });
    expect((await page.evaluate('document.documentElement.scrollWidth')) as number, page.url()).toBeLessThanOrEqual(
      375,
    );
    expect(await seriousViolations(page), `${page.url()} at 375px`).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 900 });
  }

  it('owner invites a viewer, who joins read-only; the owner reads the audit log', { timeout: 240_000 }, async () => {
    const ownerEmail = uniqueEmail();
    await signUpAndConfirm(g, ownerEmail);
    const owner = await open();
    await owner.goto(`${g.t.url}/dashboard/sign-in`);
    await owner.getByLabel('Email').fill(ownerEmail);
    await owner.getByLabel('Password').fill(PASSWORD);
    await owner.getByRole('button', { name: 'Sign in' }).click();
    await owner.getByRole('heading', { name: 'Get started' }).waitFor();

    await owner.getByRole('link', { name: 'Team' }).click();
    await owner.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await expectAccessible(owner);
    const viewerEmail = uniqueEmail('viewer');
    await owner.getByLabel('Email').fill('not an address');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('This is not an email address.').waitFor();
    await expectAccessible(owner);
    await owner.getByLabel('Email').fill(viewerEmail);
    await owner.getByLabel('Viewer').check();
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await owner.getByText('Invitation sent.').waitFor();
    expect(await owner.locator(`li[data-invitation="${viewerEmail}"]`).count()).toBe(1);
    await expectAccessible(owner);

    // The viewer, in a browser of their own.
    const mail = await mailTo(g.smtp, viewerEmail, /invited to the/);
    const viewer = await open();
    await viewer.goto(`${g.t.url}${linkIn(mail.text, '/dashboard/invitation')}`);
    await viewer.getByRole('heading', { name: 'Join Ararat Books' }).waitFor();
    await expectAccessible(viewer);
    await viewer.getByLabel('Password').fill(PASSWORD);
    await viewer.getByRole('button', { name: 'Join and sign in' }).click();
    await viewer.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
    await viewer.getByText(`Signed in as ${viewerEmail}`).waitFor();
    await viewer.getByText('You can see the team; only the owner and admins can change it.').waitFor();
    expect(await viewer.getByRole('button', { name: 'Send invitation' }).count()).toBe(0);
    expect(await viewer.locator('form[action^="/dashboard/team/"]').count()).toBe(0);
    expect(await viewer.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    await expectAccessible(viewer);

    // The owner sees the new member, can change their role, and reads the audit log.
    await owner.reload();
    await owner.locator(`li[data-member="${viewerEmail}"]`).waitFor();
    expect(await owner.locator(`li[data-invitation="${viewerEmail}"]`).count()).toBe(0);
    await expectAccessible(owner);
    await owner.getByRole('link', { name: 'Audit log' }).click();
    await owner.getByRole('heading', { name: 'Audit log' }).waitFor();
    await owner.getByRole('cell', { name: 'Member invited' }).waitFor();
    expect(await owner.getByRole('cell', { name: viewerEmail }).count()).toBeGreaterThan(0);
    await expectAccessible(owner);
    await owner.goto(`${g.t.url}/dashboard/audit-log?lang=hy`);
    await owner.getByRole('heading', { name: 'Գործողությունների մատյան' }).waitFor();
    await expectAccessible(owner);
  });
});

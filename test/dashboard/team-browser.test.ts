/**
 * Team and audit log in headless Chromium (SQLite): the owner invites a viewer from the Team page;
 * the viewer opens the mailed link in another browser, chooses a password, lands on the Team page
 * signed in, read-only; the owner reads the audit log. Every page passes axe-core (no serious or
 * critical violation) at desktop width and at 375px, without sideways scrolling.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, linkIn, mailTo, PASSWORD, signUpAndConfirm, uniqueEmail } from './support.js';

describe('team and audit log in the browser (sqlite)', () => {
  let b: DashboardBrowser;
  let g: DashboardGateway;

  beforeAll(async () => {
    b = await startDashboardBrowser('sqlite');
    g = b.g;
  }, 120_000);
  afterAll(() => b?.close());

  async function open(): Promise<Page> {
    const page = await b.open();
    page.setDefaultTimeout(30_000);
    page.setDefaultNavigationTimeout(30_000);
    return page;
  }

  it('owner invites a viewer, who joins read-only; the owner reads the audit log', { timeout: 240_000 }, async () => {
    const ownerEmail = uniqueEmail();
    await signUpAndConfirm(g, ownerEmail);
    const owner = await open();
    await signInThroughForm(owner, g.t.url, ownerEmail);

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

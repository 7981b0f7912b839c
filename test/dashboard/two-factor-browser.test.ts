/**
 * Two-step sign-in in headless Chromium: a member sets it up reading the key printed on the page
 * (the test computes codes with otpauth, as a phone would, at the gateway's manual clock), keeps
 * the recovery codes, signs out, signs in with a code and then with a recovery code, and turns it
 * off. Every page passes axe-core (no serious or critical violation) at 1280px and at 375px.
 */
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_DIALECTS } from '../support/databases.js';
import {
  type DashboardBrowser,
  expectAccessible,
  signInThroughForm,
  startDashboardBrowser,
} from './browser-support.js';
import { type DashboardGateway, PASSWORD, signUpAndConfirm, uniqueEmail } from './support.js';

const STEP_MS = 30_000;

describe.each(BROWSER_DIALECTS)('two-step sign-in in the browser (%s)', (dialect) => {
  let b: DashboardBrowser;
  let g: DashboardGateway;

  beforeAll(async () => {
    b = await startDashboardBrowser(dialect);
    g = b.g;
  }, 120_000);
  afterAll(() => b?.close());

  /** Signs in with the password: the home page, or the second step when it is on. */
  const signIn = (page: Page, email: string) => signInThroughForm(page, g.t.url, email, PASSWORD, { landing: null });

  it('sets up two-step sign-in, then signs in with a code and with a recovery code', async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email);
    const page = await b.open();

    await signIn(page, email);
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Two-step sign-in: Off' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Set up two-step sign-in' }).click();
    await page.getByRole('heading', { name: '1. Add your account to the app' }).waitFor();
    await expectAccessible(page);
    expect(await page.getByRole('img', { name: 'QR code holding the key for your authenticator app' }).count()).toBe(1);

    // The phone: the key typed in from the page.
    const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const code = (offsetMs = 0) =>
      TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: g.t.clock.nowMs() + offsetMs });

    await page
      .getByRole('textbox', { name: 'Code from the app', exact: true })
      .fill(code() === '000000' ? '111111' : '000000');
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await page.getByText('This code is not right. Enter the code the app shows now.').waitFor();
    await expectAccessible(page);
    await page.getByRole('textbox', { name: 'Code from the app', exact: true }).fill(code());
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await expectAccessible(page);
    const recoveryCodes = await page.locator('#recovery-codes li').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await page.getByRole('link', { name: 'I have saved them: back to my account' }).click();
    await page.getByRole('heading', { name: 'Two-step sign-in: On' }).waitFor();
    await page.getByRole('link', { name: 'Manage two-step sign-in' }).click();
    await page.getByRole('heading', { name: 'Turn off two-step sign-in' }).waitFor();
    await expectAccessible(page);
    for (const recoveryCode of recoveryCodes) expect(await page.content()).not.toContain(recoveryCode);

    // Sign out, and in: the password, then a code.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You are signed out.').waitFor();
    await signIn(page, email);
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await expectAccessible(page);
    await page.goto(`${g.t.url}/dashboard`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    // The code that turned it on does not work again.
    await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('This code is not right.');
    await expectAccessible(page);
    g.t.clock.advance(STEP_MS);
    await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Get started' }).waitFor();

    // A recovery code, once.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, email);
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await page.getByRole('textbox', { name: 'Code', exact: true }).fill(recoveryCodes[0] as string);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Get started' }).waitFor();

    // Turned off with a code from the app: the password alone signs in again.
    g.t.clock.advance(STEP_MS);
    await page.goto(`${g.t.url}/dashboard/account/two-factor`);
    await page.getByRole('textbox', { name: 'Code from the app, or a recovery code' }).fill(code());
    await page.locator('#d-current_password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn off', exact: true }).click();
    await page.getByText('Two-step sign-in is off.').waitFor();
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, email);
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
  }, 240_000);

  it('says when the sign-in waited too long', async () => {
    const email = uniqueEmail();
    await signUpAndConfirm(g, email);
    const page = await b.open();
    await signIn(page, email);
    await page.getByRole('heading', { name: 'Get started' }).waitFor();
    await page.goto(`${g.t.url}/dashboard/account/two-factor`);
    const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/\s/g, '');
    const code = () => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: g.t.clock.nowMs() });
    await page.getByRole('textbox', { name: 'Code from the app', exact: true }).fill(code());
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
    await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, email);
    await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
    g.t.clock.advance(5 * 60_000);
    await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code());
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'This sign-in has expired' }).waitFor();
    await expectAccessible(page);
  }, 240_000);
});

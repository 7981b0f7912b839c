/**
 * Two-step sign-in's screenshots: the setup page, the recovery codes (shown once), the page of a
 * member who has it on, and the second step of sign-in. The owner turns it on (codes computed with
 * otpauth from the printed key at the gateway's clock), signs out and in with a code, and turns it
 * off again with a recovery code, so the rest of the script signs in with the password alone.
 */
import { Secret, TOTP } from 'otpauth';
import type { SectionShots } from './shot.js';

export const twoFactorShots: SectionShots = async ({ page, shoot, publicUrl, deps, email, password }) => {
  const setUp = `${publicUrl}/dashboard/account/two-factor?lang=en`;
  await page.goto(setUp);
  await page.getByRole('heading', { name: '1. Add your account to the app' }).waitFor();
  await shoot('two-factor-setup');

  const secret = ((await page.locator('#totp-secret').textContent()) ?? '').replace(/\s/g, '');
  // The gateway's clock stands still here: the next step's code (within the accepted drift) is a new one.
  const code = (steps: number) =>
    TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: deps.clock.nowMs() + steps * 30_000 });
  await page.getByRole('textbox', { name: 'Code from the app', exact: true }).fill(code(0));
  await page.getByLabel('Current password').fill(password);
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await page.getByRole('heading', { name: 'Your recovery codes' }).waitFor();
  await shoot('two-factor-recovery-codes');
  const recoveryCodes = await page.locator('#recovery-codes li').allTextContents();

  await page.goto(setUp);
  await page.getByRole('heading', { name: 'Turn off two-step sign-in' }).waitFor();
  await shoot('two-factor-on');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto(`${publicUrl}/dashboard/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Enter your code' }).waitFor();
  await shoot('two-factor-sign-in');
  await page.getByRole('textbox', { name: 'Code', exact: true }).fill(code(1));
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: 'Get started' }).waitFor();

  // Off again, with a recovery code: the rest of the walk signs in with the password alone.
  await page.goto(setUp);
  await page.getByRole('textbox', { name: 'Code from the app, or a recovery code' }).fill(recoveryCodes[0] ?? '');
  await page.locator('#d-current_password').fill(password);
  await page.getByRole('button', { name: 'Turn off', exact: true }).click();
  await page.getByText('Two-step sign-in is off.').waitFor();
};

/**
 * Screenshots of the Team and audit log pages: the owner invites an admin, who joins from the
 * mailed link in a browser of their own, then invites a viewer who has not answered yet; the team
 * page shows both; the audit log shows what happened.
 */
import { linkIn, mailTo } from '../../test/dashboard/readers.js';
import type { SectionShots } from './shot.js';

export const teamShots: SectionShots = async ({ page, shoot, publicUrl, smtp, password, size }) => {
  const invite = async (email: string, role: 'Admin' | 'Viewer') => {
    await page.goto(`${publicUrl}/dashboard/team`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel(role).check();
    await page.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText('Invitation sent.').waitFor();
  };

  const admin = `anahit-${size}@ararat-books.am`;
  await invite(admin, 'Admin');
  const mail = await mailTo(smtp, admin, /invited to the/);
  const browser = page.context().browser();
  if (browser === null) throw new Error('the page has no browser');
  const other = await browser.newContext();
  try {
    const invitee = await other.newPage();
    await invitee.goto(`${publicUrl}${linkIn(mail.text, '/dashboard/invitation')}`);
    await invitee.getByLabel('Password', { exact: true }).fill(password);
    await invitee.getByRole('button', { name: 'Join and sign in' }).click();
    await invitee.getByRole('heading', { name: 'Team', level: 1 }).waitFor();
  } finally {
    await other.close();
  }

  await invite(`davit-${size}@ararat-books.am`, 'Viewer');
  await page.goto(`${publicUrl}/dashboard/team`);
  await shoot('team');
  await page.goto(`${publicUrl}/dashboard/audit-log`);
  await shoot('audit-log');
};

/** Screenshots of the overview: the test environment after the sandbox payments of the customers walk, the day-by-day numbers open. */
import { ensureSandboxPayments } from './customers.js';
import type { SectionShots } from './shot.js';

export const overviewShots: SectionShots = async (context) => {
  const { page, shoot, publicUrl } = context;
  await ensureSandboxPayments(context);
  await page.goto(`${publicUrl}/dashboard/overview?env=test`);
  await shoot('overview');
  await page.getByText('Show the numbers of each day').click();
  await shoot('overview-numbers');
};

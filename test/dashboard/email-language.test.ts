/**
 * The language of an account's emails from the service, over HTTP on both databases: it is the
 * dashboard's language at sign-up, owners and admins change it on the account page (viewers
 * neither see nor change it), and the business decision emails are written in it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rejectBusinessVerification, verifyBusinessVerification } from '../../gateway/merchants/business-review.js';
import { visibleText } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { GOOD_BUSINESS, postBusiness, samplePdf } from './business-support.js';
import {
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
  uniqueEmail,
} from './support.js';

describe.each(DIALECTS)('the language of the account emails (%s)', (dialect) => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
  });
  afterAll(async () => g?.close());

  const db = () => g.t.gateway.deps.db;

  /** An owner signed up from the page in `lang`, signed in, and the account. */
  const signUpIn = (lang: string) => signedInOwner(g, uniqueEmail(`lang-${lang}`), lang);

  const languageOf = async (merchantId: string) =>
    (await db().selectFrom('merchants').select('language').where('id', '=', merchantId).executeTakeFirstOrThrow())
      .language;

  /** The business decision emails queued for the account, oldest first. */
  const decisionEmails = (merchantId: string) =>
    db()
      .selectFrom('merchant_emails')
      .select(['subject', 'body'])
      .where('merchant_id', '=', merchantId)
      .where('kind', 'like', 'business%')
      .orderBy('created_at')
      .orderBy('id')
      .execute();

  it('takes the sign-up page language, and writes the decision emails in the language the owner chooses', async () => {
    const { client, merchantId } = await signUpIn('hy');
    expect(await languageOf(merchantId)).toBe('hy');

    expect(
      (
        await postBusiness(client, GOOD_BUSINESS, [
          { name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() },
        ])
      ).status,
    ).toBe(303);
    await rejectBusinessVerification(g.t.gateway.deps, merchantId, 'The extract is older than a year.');
    const [rejected] = await decisionEmails(merchantId);
    expect(rejected?.subject).toBe('Բիզնեսի հաստատում. անհրաժեշտ են փոփոխություններ');
    expect(rejected?.body).toContain('«Ararat Books LLC» ընկերությունը');
    expect(rejected?.body).toContain('The extract is older than a year.');
    expect(rejected?.body).toContain('/dashboard/business');

    // The owner switches the account's emails to Russian on the account page (in English here).
    const account = await client.get('/dashboard/account?lang=en');
    expect(visibleText(account.text)).toContain('Language of the account’s emails');
    expect(account.text).toMatch(/<option value="hy" lang="hy" selected>/);
    const changed = await client.submit('/dashboard/account', '/dashboard/account/email-language', { language: 'ru' });
    expect(changed.status, changed.text).toBe(303);
    expect(locationPath(changed)).toBe('/dashboard/account?notice=email-language-changed');
    expect(visibleText((await client.get(locationPath(changed))).text)).toContain(
      'The account’s emails will be written in the language you chose.',
    );
    expect(await languageOf(merchantId)).toBe('ru');

    expect(
      (
        await postBusiness(client, GOOD_BUSINESS, [
          { name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() },
        ])
      ).status,
    ).toBe(303);
    await verifyBusinessVerification(g.t.gateway.deps, merchantId);
    const verified = (await decisionEmails(merchantId)).at(-1);
    expect(verified?.subject).toBe('Ваш бизнес подтверждён');
    expect(verified?.body).toContain('Мы проверили присланные данные и подтвердили «Ararat Books LLC».');
  });

  it('refuses a language it does not write (422, unchanged), and shows viewers no choice and refuses them (403)', async () => {
    const { client, merchantId } = await signUpIn('en');
    expect(await languageOf(merchantId)).toBe('en');
    const refused = await client.submit('/dashboard/account', '/dashboard/account/email-language', { language: 'de' });
    expect(refused.status).toBe(422);
    expect(visibleText(refused.text)).toContain('Choose English, Armenian or Russian.');
    expect(refused.text).toContain('aria-invalid="true"');
    expect(await languageOf(merchantId)).toBe('en');

    const viewer = await signedInMember(g, merchantId, 'viewer');
    const page = await viewer.get('/dashboard/account');
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('/dashboard/account/email-language');
    const forbidden = await viewer.submit('/dashboard/account', '/dashboard/account/email-language', {
      language: 'ru',
    });
    expect(forbidden.status).toBe(403);
    expect(await languageOf(merchantId)).toBe('en');
  });
});

/**
 * Business verification in the dashboard over HTTP (both databases): the multipart form with its
 * documents, what is refused (bad fields, files of another type, too big, too many, a missing or
 * foreign form token, a viewer, a second request while one is pending), with nothing stored, and
 * the downloads (owner and admins only, as attachments, never another account's).
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import { GOOD_BUSINESS, postBusiness, sampleExe, samplePdf, samplePng, storedCounts } from './business-support.js';
import {
  type DashboardGateway,
  locationPath,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

describe.each(DIALECTS)('dashboard business verification (%s)', (dialect) => {
  let g: DashboardGateway;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
  });
  afterAll(async () => {
    await g?.close();
  });

  const db = () => g.t.gateway.deps.db;

  it('shows the form, takes a request with its documents, then shows it pending and refuses a second', async () => {
    const { client, merchantId, email } = await signedInOwner(g);
    const first = await client.get('/dashboard/business');
    expect(first.status).toBe(200);
    expect(first.text).toContain('Not sent');
    expect(first.text).toContain('enctype="multipart/form-data"');
    expect(first.text).toContain('aria-current="page"');

    const pdf = samplePdf();
    const png = samplePng();
    const posted = await postBusiness(client, GOOD_BUSINESS, [
      { name: '../../etc/Extract <2026>.PDF', type: 'application/pdf', bytes: pdf },
      { name: 'director passport.png', type: 'application/octet-stream', bytes: png },
    ]);
    expect(posted.status, posted.text).toBe(303);
    expect(locationPath(posted)).toBe('/dashboard/business?notice=submitted');

    const request = await db()
      .selectFrom('business_verifications')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .executeTakeFirstOrThrow();
    expect(request).toMatchObject({
      legal_name: 'Ararat Books LLC',
      tin: '02512345',
      address: '5 Abovyan St, Yerevan 0001',
      phone: '+37410123456',
      status: 'pending',
      reason: null,
      decided_at: null,
    });
    const documents = await db()
      .selectFrom('business_verification_documents')
      .selectAll()
      .where('verification_id', '=', request.id)
      .orderBy('id')
      .execute();
    expect(documents.map((d) => [d.file_name, d.content_type, d.size, d.sha256])).toEqual([
      ['Extract _2026_.pdf', 'application/pdf', pdf.length, createHash('sha256').update(pdf).digest('hex')],
      ['director passport.png', 'image/png', png.length, createHash('sha256').update(png).digest('hex')],
    ]);
    expect(Buffer.from(documents[0]?.content ?? new Uint8Array()).equals(pdf)).toBe(true);

    const audit = await db()
      .selectFrom('dashboard_audit_events')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('action', '=', 'business.submitted')
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_email: email, subject: 'Ararat Books LLC (TIN 02512345)' });

    const pending = await client.get('/dashboard/business?notice=submitted');
    expect(pending.text).toContain('Your request is sent.');
    expect(pending.text).toContain('Being checked');
    expect(pending.text).toContain('Extract _2026_.pdf');
    expect(pending.text).not.toContain('enctype="multipart/form-data"');

    // The download: an attachment of the stored type, never sniffed.
    const download = await client.get(`/dashboard/business/documents/${documents[0]?.id}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toBe(
      `attachment; filename="Extract _2026_.pdf"; filename*=UTF-8''Extract%20_2026_.pdf`,
    );
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');
    expect(download.headers.get('cache-control')).toBe('no-store');

    // A second request while one is pending is refused, and nothing more is stored.
    const again = await postBusiness(client, GOOD_BUSINESS, [
      { name: 'again.pdf', type: 'application/pdf', bytes: pdf },
    ]);
    expect(again.status).toBe(409);
    expect(again.text).toContain('A request is already being checked');
    expect(await storedCounts(db(), merchantId)).toEqual({ requests: 1, documents: 2 });

    // Another account's document is a 404, like one that does not exist.
    const other = await signedInOwner(g);
    expect((await other.client.get(`/dashboard/business/documents/${documents[0]?.id}`)).status).toBe(404);
    expect((await client.get('/dashboard/business/documents/0193c1a0-0000-7000-8000-000000000000')).status).toBe(404);

    // A viewer sees the state and the names, without links or form, and may not download.
    const viewer = await signedInMember(g, merchantId, 'viewer');
    const seen = await viewer.get('/dashboard/business');
    expect(seen.status).toBe(200);
    expect(seen.text).toContain('Extract _2026_.pdf');
    expect(seen.text).not.toContain('/dashboard/business/documents/');
    expect(seen.text).toContain('Only the owner or an admin');
    expect((await viewer.get(`/dashboard/business/documents/${documents[0]?.id}`)).status).toBe(403);
  });

  it('refuses bad fields with 422, naming each, and stores nothing', async () => {
    const { client, merchantId } = await signedInOwner(g);
    const page = await postBusiness(
      client,
      { legal_name: '', tin: '1234567', address: 'Yerevan', phone: '+7 999 1234567' },
      [{ name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() }],
    );
    expect(page.status).toBe(422);
    expect(page.text).toContain('id="f-legal_name-error"');
    expect(page.text).toContain('A TIN is exactly 8 digits.');
    expect(page.text).toContain('id="f-tin-error"');
    expect(page.text).toContain('id="f-phone-error"');
    expect(page.text).not.toContain('id="f-address-error"');
    // What was typed is kept.
    expect(page.text).toContain('value="+7 999 1234567"');

    const noDocuments = await postBusiness(client, GOOD_BUSINESS, []);
    expect(noDocuments.status).toBe(422);
    expect(noDocuments.text).toContain('Add at least one document.');
    expect(await storedCounts(db(), merchantId)).toEqual({ requests: 0, documents: 0 });
  });

  it('refuses a file that is not a PDF, PNG or JPEG whatever its name and declared type', async () => {
    const { client, merchantId } = await signedInOwner(g);
    const page = await postBusiness(client, GOOD_BUSINESS, [
      { name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() },
      { name: 'invoice.pdf', type: 'application/pdf', bytes: sampleExe() },
    ]);
    expect(page.status).toBe(422);
    expect(page.text).toContain('Only PDF, PNG and JPEG files are accepted');
    expect(page.text).toContain('id="f-documents-error"');
    expect(await storedCounts(db(), merchantId)).toEqual({ requests: 0, documents: 0 });
  });

  it('refuses a file over 5 MB (413) and more than 5 files (422), storing nothing', async () => {
    const { client, merchantId } = await signedInOwner(g);
    const big = Buffer.concat([samplePdf(), Buffer.alloc(5 * 1024 * 1024, 0x20)]);
    const tooBig = await postBusiness(client, GOOD_BUSINESS, [
      { name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() },
      { name: 'scan.pdf', type: 'application/pdf', bytes: big },
    ]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.text).toContain('Each file may be at most 5 MB.');
    // The form is shown again with what was typed.
    expect(tooBig.text).toContain('value="Ararat Books LLC"');

    const six = Array.from({ length: 6 }, (_, i) => ({
      name: `page-${i}.pdf`,
      type: 'application/pdf',
      bytes: samplePdf(`page ${i}`),
    }));
    const tooMany = await postBusiness(client, GOOD_BUSINESS, six);
    expect(tooMany.status).toBe(422);
    expect(tooMany.text).toContain('Send at most 5 files.');

    const fourMb = Buffer.concat([samplePdf(), Buffer.alloc(4 * 1024 * 1024, 0x20)]);
    const tooMuch = await postBusiness(
      client,
      GOOD_BUSINESS,
      [1, 2, 3, 4].map((i) => ({ name: `part-${i}.pdf`, type: 'application/pdf', bytes: fourMb })),
    );
    expect(tooMuch.status).toBe(413);
    expect(tooMuch.text).toContain('All files together may be at most 15 MB.');
    expect(await storedCounts(db(), merchantId)).toEqual({ requests: 0, documents: 0 });
  });

  it('refuses a post without the form token, with a foreign one, or with the token after the files (403)', async () => {
    const { client, merchantId } = await signedInOwner(g);
    const other = await signedInOwner(g);
    const foreign = formToken((await other.client.get('/dashboard/business')).text);
    const files = [{ name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() }];
    for (const options of [{ token: null }, { token: '' }, { token: foreign }, { tokenLast: true }]) {
      const page = await postBusiness(client, GOOD_BUSINESS, files, options);
      expect(page.status, JSON.stringify(options)).toBe(403);
      expect(page.text).toContain('This form has expired');
    }
    expect(await storedCounts(db(), merchantId)).toEqual({ requests: 0, documents: 0 });
  });

  it('keeps one pending request when two posts race', async () => {
    const { client, merchantId } = await signedInOwner(g);
    const token = formToken((await client.get('/dashboard/business')).text);
    const files = [{ name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() }];
    const answers = await Promise.all([
      postBusiness(client, GOOD_BUSINESS, files, { token }),
      postBusiness(client, GOOD_BUSINESS, files, { token }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    expect(await storedCounts(db(), merchantId)).toEqual({ requests: 1, documents: 1 });
  });

  it('refuses a viewer (403) and lets an admin send the form', async () => {
    const { merchantId } = await signedInOwner(g);
    const viewer = await signedInMember(g, merchantId, 'viewer');
    const page = await viewer.get('/dashboard/business');
    expect(page.text).not.toContain('enctype="multipart/form-data"');
    const refused = await postBusiness(
      viewer,
      GOOD_BUSINESS,
      [{ name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() }],
      { token: formToken(page.text) },
    );
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('You cannot do this');
    expect(await storedCounts(db(), merchantId)).toEqual({ requests: 0, documents: 0 });

    const admin = await signedInMember(g, merchantId, 'admin');
    const sent = await postBusiness(admin, GOOD_BUSINESS, [
      { name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() },
    ]);
    expect(sent.status, sent.text).toBe(303);
    expect(await storedCounts(db(), merchantId)).toEqual({ requests: 1, documents: 1 });
  });
});

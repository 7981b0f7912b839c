/**
 * `bin/gateway business list|show|document|reject|verify` as an operator runs them, on the database
 * of a running gateway whose dashboard took the merchant's request: the pending list (table and
 * JSON), a rejection with its reason (mailed through SMTP, shown in the dashboard), a second
 * request, the documents read back, and the verification (mailed, the checklist ticks, the live key
 * works at the next request). Without SMTP in the command's environment, the running gateway sends
 * the email from the outbox.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../gateway/merchants/api-keys.service.js';
import { GOOD_BUSINESS, postBusiness, samplePdf, samplePng } from '../dashboard/business-support.js';
import {
  type DashboardClient,
  type DashboardGateway,
  mailTo,
  signedInOwner,
  signIn,
  startDashboardGateway,
} from '../dashboard/support.js';
import { CLI_TEST_TIMEOUT_MS, type CliResult, gatewayWith } from '../support/cli-in-process.js';
import { DIALECTS } from '../support/databases.js';

describe.each(DIALECTS)('bin/gateway business on %s', { timeout: CLI_TEST_TIMEOUT_MS }, (dialect) => {
  let g: DashboardGateway;
  let client: DashboardClient;
  let merchantId: string;
  let email: string;

  const cli = (env: Record<string, string>, ...args: string[]): Promise<CliResult> =>
    gatewayWith({ DATABASE_URL: g.t.gateway.deps.config.databaseUrl, ...env }, ...args);
  const withSmtp = () => ({ SMTP_URL: `smtp://127.0.0.1:${g.smtp.port}` });
  const json = async <T = Record<string, unknown>>(env: Record<string, string>, ...args: string[]): Promise<T> => {
    const result = await cli(env, ...args, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout) as T;
  };

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
    ({ client, merchantId, email } = await signedInOwner(g));
  });
  afterAll(async () => {
    await g?.close();
  });

  it('lists the pending request, rejects it with a reason that is mailed and shown, then takes a new one', async () => {
    const empty = await cli({}, 'business', 'list', '--pending');
    expect(empty.code).toBe(0);
    expect(empty.stdout).toContain('No business verification request is pending.');

    const sent = await postBusiness(client, GOOD_BUSINESS, [
      { name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() },
    ]);
    expect(sent.status, sent.text).toBe(303);

    const listed = await json<{ business_verifications: Array<Record<string, unknown>> }>(
      {},
      'business',
      'list',
      '--pending',
    );
    expect(listed.business_verifications).toEqual([
      {
        verification_id: expect.any(String),
        merchant_id: merchantId,
        merchant_name: 'Ararat Books',
        legal_name: 'Ararat Books LLC',
        tin: '02512345',
        address: '5 Abovyan St, Yerevan 0001',
        phone: '+37410123456',
        submitted_at: expect.any(String),
        documents: 1,
      },
    ]);
    const table = await cli({}, 'business', 'list', '--pending');
    expect(table.stdout).toMatch(/^SUBMITTED\s+MERCHANT\s+LEGAL NAME\s+TIN\s+PHONE\s+DOCS\n/);
    expect(table.stdout).toContain(`${merchantId}  Ararat Books LLC  02512345`);

    const usage = await cli({}, 'business', 'list');
    expect(usage.code).toBe(2);
    const noReason = await cli({}, 'business', 'reject', '--merchant', merchantId);
    expect(noReason.code).toBe(2);
    expect(noReason.stderr).toContain('--reason is required');

    const reason = 'The state register extract is older than 30 days: send a recent one.';
    const rejected = await json(withSmtp(), 'business', 'reject', '--merchant', merchantId, '--reason', reason);
    expect(rejected).toEqual({
      merchant_id: merchantId,
      business_verified: false,
      status: 'rejected',
      verification_id: listed.business_verifications[0]?.verification_id,
      reason,
      decided_at: expect.any(String),
      emails: [{ to: email, status: 'sent' }],
    });
    const mail = await mailTo(g.smtp, email, /changes needed/);
    expect(mail.text).toContain(reason);
    expect(mail.text).toContain('/dashboard/business');

    const again = await cli({}, 'business', 'reject', '--merchant', merchantId, '--reason', 'twice');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('has no pending business verification request');

    const audit = await g.t.gateway.deps.db
      .selectFrom('dashboard_audit_events')
      .selectAll()
      .where('merchant_id', '=', merchantId)
      .where('action', '=', 'business.rejected')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ user_id: null, actor_email: null, subject: 'Ararat Books LLC (TIN 02512345)' });

    const page = await client.get('/dashboard/business');
    expect(page.text).toContain('Rejected');
    expect(page.text).toContain(reason);
    expect(page.text).toContain('Send the corrected details');
    expect(page.text).toContain('value="Ararat Books LLC"');

    const resent = await postBusiness(client, { ...GOOD_BUSINESS, legal_name: 'Ararat Books Ltd' }, [
      { name: 'extract-new.pdf', type: 'application/pdf', bytes: samplePdf('recent') },
      { name: 'charter.png', type: 'image/png', bytes: samplePng() },
    ]);
    expect(resent.status, resent.text).toBe(303);
    expect((await client.get('/dashboard/business')).text).toContain('Being checked');
  });

  it('shows the request and saves its documents for the operator', async () => {
    const shown = await json<{
      status: string;
      verification: Record<string, unknown>;
      documents: Array<{ id: string; file_name: string; content_type: string; size: number; sha256: string }>;
    }>({}, 'business', 'show', '--merchant', merchantId);
    expect(shown).toMatchObject({
      merchant_id: merchantId,
      status: 'pending',
      business_verified: false,
      verification: { status: 'pending', legal_name: 'Ararat Books Ltd', tin: '02512345', reason: null },
    });
    expect(shown.documents.map((d) => [d.file_name, d.content_type])).toEqual([
      ['extract-new.pdf', 'application/pdf'],
      ['charter.png', 'image/png'],
    ]);

    const out = join(mkdtempSync(join(tmpdir(), 'business-doc-')), 'extract.pdf');
    const id = shown.documents[0]?.id ?? '';
    const saved = await json({}, 'business', 'document', '--id', id, '--out', out);
    expect(saved).toMatchObject({ id, file_name: 'extract-new.pdf', content_type: 'application/pdf', out });
    expect(readFileSync(out).equals(samplePdf('recent'))).toBe(true);
    const overwrite = await cli({}, 'business', 'document', '--id', id, '--out', out);
    expect(overwrite.code).toBe(1);
    expect(overwrite.stderr).toContain('exists already');
    const missing = await cli({}, 'business', 'document', '--id', 'nope', '--out', `${out}.2`);
    expect(missing.code).toBe(1);
  });

  it('verifies: the email leaves from the outbox, the checklist ticks and the live key works', async () => {
    const deps = g.t.gateway.deps;
    const live = await createApiKey(deps, { merchantId, environment: 'live', access: 'full' });
    const before = await g.t.call('GET', '/api/v1/billing/balances', { key: live.key });
    expect(before.status).toBe(403);
    expect((await client.get('/dashboard')).text).toMatch(/<li class="todo" data-item="business_verified">/);

    // Without SMTP in its environment, the command leaves the email to the running gateway.
    const verified = await json<{ emails: unknown; decided_at: string }>(
      {},
      'business',
      'verify',
      '--merchant',
      merchantId,
    );
    expect(verified).toMatchObject({
      merchant_id: merchantId,
      business_verified: true,
      status: 'verified',
      reason: null,
      emails: [{ to: email, status: 'pending' }],
    });
    // The gateway's clock is the tests' own: bring it to the command's time, then run its due work.
    const lag = Date.parse(verified.decided_at) - deps.clock.nowMs();
    if (lag > 0) g.t.clock.advance(lag + 1000);
    await g.t.gateway.scheduler.runDueNow();
    const mail = await mailTo(g.smtp, email, /Your business is verified/);
    expect(mail.text).toContain('Ararat Books Ltd');

    const after = await g.t.call('GET', '/api/v1/billing/balances', { key: live.key });
    expect(after.status).toBe(200);
    // Days went by on the gateway's clock: the session ended meanwhile.
    expect((await signIn(client, email)).status).toBe(303);
    expect((await client.get('/dashboard')).text).toMatch(/<li class="done" data-item="business_verified">/);
    const page = await client.get('/dashboard/business');
    expect(page.text).toContain('Your business is verified');
    expect(page.text).not.toContain('enctype="multipart/form-data"');

    const audit = await deps.db
      .selectFrom('dashboard_audit_events')
      .select(['action', 'user_id'])
      .where('merchant_id', '=', merchantId)
      .where('action', '=', 'business.verified')
      .execute();
    expect(audit).toEqual([{ action: 'business.verified', user_id: null }]);

    // Verified: a new request is refused.
    const refused = await postBusiness(client, GOOD_BUSINESS, [
      { name: 'extract.pdf', type: 'application/pdf', bytes: samplePdf() },
    ]);
    expect(refused.status).toBe(409);
    expect(refused.text).toContain('Your business is already verified.');
    expect((await cli({}, 'business', 'list', '--pending')).stdout).toContain('No business verification request');
  });
});

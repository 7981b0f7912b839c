/**
 * `bin/gateway domain verification`, `domain verify` and `webhook test` as an operator runs them
 * (in the test process, test/support/cli-in-process.ts) on the database of a running gateway,
 * asking a test DNS server (GATEWAY_DNS_SERVERS) and sending to a local receiver. A domain the CLI
 * verifies takes live payments at the running gateway's next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../connector/gateway-client/webhook-verification.js';
import { addDomain } from '../../gateway/merchants/domains.service.js';
import { CLI_TEST_TIMEOUT_MS, type CliResult, gatewayWith } from '../support/cli-in-process.js';
import { DIALECTS } from '../support/databases.js';
import { TestDnsServer } from '../support/dns-server.js';
import {
  enableLiveProcessor,
  paymentBody,
  startTestGateway,
  type TestGateway,
  uniqueHost,
} from '../support/gateway.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

describe.each(DIALECTS)(
  'bin/gateway domain verification and webhook test on %s',
  { timeout: CLI_TEST_TIMEOUT_MS },
  (dialect) => {
    let t: TestGateway;
    let dns: TestDnsServer;
    let receiver: WebhookReceiver;
    let merchantId: string;
    let liveKey: string;
    let secret: string;
    const host = uniqueHost('cli-verify');

    const cli = (...args: string[]): Promise<CliResult> =>
      gatewayWith(
        {
          DATABASE_URL: t.gateway.deps.config.databaseUrl,
          GATEWAY_DNS_SERVERS: dns.servers,
          GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1',
        },
        ...args,
      );
    const pay = () =>
      t.call('POST', '/api/v1/payments', {
        key: liveKey,
        body: paymentBody({ domain: host, return_url: `https://${host}/done` }),
      });

    beforeAll(async () => {
      dns = await TestDnsServer.start();
      receiver = await WebhookReceiver.start();
      t = await startTestGateway(dialect, { env: { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' } });
      const deps = t.gateway.deps;
      const m = await t.merchant({ verifyBusiness: true });
      merchantId = m.merchantId;
      secret = (await addDomain(deps, { merchantId, host, verified: false, webhookUrl: `${receiver.url}/hooks` }))
        .webhook_secret;
      await enableLiveProcessor(deps, merchantId, host);
      liveKey = await t.key(merchantId, 'live');
    });
    afterAll(async () => {
      await t?.close();
      await receiver?.close();
      await dns?.close();
    });

    it('shows the token, fails a check with its reason, then verifies by DNS: live payments work at once', async () => {
      const shown = await cli('domain', 'verification', '--merchant', merchantId, '--host', host, '--json');
      expect(shown.stderr).toBe('');
      expect(shown.code).toBe(0);
      const view = JSON.parse(shown.stdout);
      expect(view).toMatchObject({
        host,
        verified: false,
        txt_name: `_gateway-verification.${host}`,
        txt_value: `gateway-verification=${view.token}`,
        file_url: `https://${host}/.well-known/gateway-verification.txt`,
        last_check: null,
      });

      const failed = await cli(
        'domain',
        'verify',
        '--merchant',
        merchantId,
        '--host',
        host,
        '--method',
        'dns',
        '--json',
      );
      expect(failed.code).toBe(1);
      expect(failed.stderr).toBe('');
      expect(JSON.parse(failed.stdout)).toMatchObject({
        ok: false,
        verified: false,
        failure: { code: 'dns_no_record' },
        last_check: { method: 'dns', ok: false, failure_code: 'dns_no_record' },
      });
      expect((await pay()).body.error).toBe('domain_not_registered');

      dns.setTxt(view.txt_name, [[view.txt_value]]);
      const passed = await cli(
        'domain',
        'verify',
        '--merchant',
        merchantId,
        '--host',
        host,
        '--method',
        'dns',
        '--json',
      );
      expect(passed.stderr).toBe('');
      expect(passed.code).toBe(0);
      expect(JSON.parse(passed.stdout)).toMatchObject({
        ok: true,
        verified: true,
        verified_method: 'dns',
        failure: null,
      });
      const paid = await pay();
      expect(paid.status, paid.text).toBe(201);
      // The operator's check is in the account's audit log; the failed one is not.
      const audited = await t.gateway.deps.db
        .selectFrom('dashboard_audit_events')
        .select(['action', 'subject', 'user_id'])
        .where('merchant_id', '=', merchantId)
        .where('action', '=', 'domain.verified')
        .execute();
      expect(audited).toEqual([{ action: 'domain.verified', subject: `${host} (dns)`, user_id: null }]);

      const text = await cli('domain', 'verification', '--merchant', merchantId, '--host', host);
      expect(text.code).toBe(0);
      expect(text.stdout).toContain(`Domain ${host}: verified (dns).`);
      expect(text.stdout).toContain(`${view.txt_name}  with the value  ${view.txt_value}`);
      expect(text.stdout).toMatch(/Last check \(dns\) at .+: passed\./);
    });

    it('refuses to check localhost, and an unknown method', async () => {
      await addDomain(t.gateway.deps, { merchantId, host: 'localhost', verified: false });
      const local = await cli(
        'domain',
        'verify',
        '--merchant',
        merchantId,
        '--host',
        'localhost',
        '--method',
        'dns',
        '--json',
      );
      expect(local.code).toBe(1);
      expect(JSON.parse(local.stderr)).toEqual({
        error: 'localhost can never be verified (localhost and IP addresses)',
      });
      const method = await cli('domain', 'verify', '--merchant', merchantId, '--host', host, '--method', 'email');
      expect(method.code).toBe(2);
      expect(method.stderr).toContain('--method must be one of dns, https');
    });

    it('sends a signed test event to the webhook URL and reports a failing receiver', async () => {
      const sent = await cli('webhook', 'test', '--merchant', merchantId, '--host', host, '--json');
      expect(sent.stderr).toBe('');
      expect(sent.code).toBe(0);
      const result = JSON.parse(sent.stdout);
      expect(result).toMatchObject({ host, delivered: true, status_code: 200, answer: 'ok', error: null });
      const received = receiver.received.at(-1);
      if (received === undefined) throw new Error('no test event received');
      expect(received.json.delivery_id).toBe(result.delivery_id);
      expect(
        verifyWebhook({ rawBody: received.raw, headers: received.headers, secrets: secret, toleranceSeconds: 300 }),
      ).toMatchObject({
        ok: true,
      });

      receiver.replyWith({ status: 503, body: 'maintenance' });
      const failing = await cli('webhook', 'test', '--merchant', merchantId, '--host', host);
      expect(failing.code).toBe(1);
      expect(failing.stdout).toContain('failed after');
      expect(failing.stdout).toContain('HTTP 503');
      expect(failing.stdout).toContain('Answer: maintenance');
    });
  },
);

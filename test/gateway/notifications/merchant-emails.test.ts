/**
 * Merchant emails about webhook deliveries that failed for good (spec "Delivery rules" 5, "Limits"),
 * on both databases: the email reaches a real SMTP server with what a shop owner needs and no
 * secret; at most one is queued per domain every 6 hours, also under concurrent failures; a down
 * SMTP server means a retry 5 minutes later and `failed` after 5 attempts; without `SMTP_URL` or
 * without a merchant email address the email is logged and kept as `logged`.
 */
import type { Logger } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../gateway/config.js';
import { HOUR_MS, MINUTE_MS, toStoredInstant } from '../../../gateway/domain/clock.js';
import { sendMerchantEmailsWork } from '../../../gateway/jobs/send-merchant-emails.js';
import { addDomain } from '../../../gateway/merchants/domains.service.js';
import {
  type DeliveryFailure,
  deliveryFailureEmail,
  queueDeliveryFailureEmail,
} from '../../../gateway/notifications/delivery-failure-email.js';
import { createMailer, type Mailer } from '../../../gateway/notifications/mailer.js';
import { sendMerchantEmails } from '../../../gateway/notifications/merchant-emails.js';
import type { Deps } from '../../../gateway/runtime/deps.js';
import { createLogger } from '../../../gateway/runtime/logger.js';
import { findMerchantDomain } from '../../../storage/domain.repository.js';
import { findMerchantEmail, listMerchantEmails } from '../../../storage/merchant-email.repository.js';
import type { MerchantEmailRow } from '../../../storage/merchant-email.table.js';
import { findPaymentRow } from '../../../storage/payment.repository.js';
import { DIALECTS } from '../../support/databases.js';
import { PUBLIC_URL, paymentBody, startTestGateway, type TestGateway } from '../../support/gateway.js';
import { freePort } from '../../support/ports.js';
import { parseMessage, type ReceivedMail, startSmtp, type TestSmtp } from '../../support/smtp-server.js';

const OWNER = 'owner@shop.example';
const WEBHOOK_URL = 'https://shop.example/webhooks/gateway';

/** A pino logger (with the service's redaction) whose lines the test reads. */
function capturedLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger('info', {
    write(line: string) {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { logger, lines };
}

function sampleFailure(overrides: Partial<DeliveryFailure> = {}): DeliveryFailure {
  return {
    merchantId: 'm',
    domainId: 'd',
    deliveryId: '0192f000-0000-7000-8000-000000000001',
    url: WEBHOOK_URL,
    event: 'transaction.status.updated',
    paymentUuid: '0192f000-0000-7000-8000-000000000002',
    orderId: 'order-1001',
    attempts: 4,
    lastStatusCode: 503,
    lastError: null,
    ...overrides,
  };
}

describe('failed-delivery email content', () => {
  const context = { domainHost: 'shop.example', publicUrl: PUBLIC_URL };

  it('names the last HTTP status, or the error when there was no answer', () => {
    expect(deliveryFailureEmail(sampleFailure(), context).text).toContain('Last result:   HTTP 503\n');
    const timedOut = sampleFailure({ lastStatusCode: null, lastError: 'no answer within 10 s' });
    expect(deliveryFailureEmail(timedOut, context).text).toContain(
      'Last result:   no usable answer: no answer within 10 s\n',
    );
  });

  it('hides credentials and query values of the webhook URL and keeps merchant text on one line', () => {
    const { subject, text } = deliveryFailureEmail(
      sampleFailure({
        url: 'https://hook:s3cret-pass@shop.example/wh?token=tok-s3cret&topic=orders#frag-s3cret',
        orderId: 'order-7\r\nBcc: someone@else.example',
      }),
      context,
    );
    expect(text).toContain('Webhook URL:   https://***:***@shop.example/wh?token=***&topic=***\n');
    expect(text).not.toMatch(/s3cret|hook:/);
    expect(text).toContain('Order ID:      order-7 Bcc: someone@else.example\n');
    expect(text).not.toMatch(/\nBcc:/);
    expect(text).toContain(`GET ${PUBLIC_URL}/api/v1/orders/order-7%0D%0ABcc%3A%20someone%40else.example/payment`);
    expect(subject).toBe('Action needed: webhook delivery to shop.example failed');
  });

  it("is written in the account's language, with the same facts and masking", () => {
    const failure = sampleFailure({ url: 'https://shop.example/wh?token=tok-s3cret' });
    const hy = deliveryFailureEmail(failure, { ...context, language: 'hy' });
    const ru = deliveryFailureEmail(failure, { ...context, language: 'ru' });
    expect(hy.subject).toBe('Անհրաժեշտ է Ձեր միջամտությունը. վեբհուքը չի առաքվել shop.example հասցեին');
    expect(ru.subject).toBe('Требуется действие: вебхук не доставлен на shop.example');
    expect(hy.text).toContain('Բարև Ձեզ,');
    // Signed in the reader's language, with no English left in the text.
    expect(hy.text).toContain('--\nՎճարային դարպաս\n');
    expect(ru.text).toContain('--\nПлатёжный шлюз\n');
    expect(hy.text).not.toMatch(/firewall|webhook|Payment Gateway/);
    expect(ru.text).not.toMatch(/firewall|webhook|Payment Gateway/);
    expect(ru.text).toContain('Последний результат: HTTP 503\n');
    for (const { text } of [hy, ru]) {
      expect(text).toContain('https://shop.example/wh?token=***');
      expect(text).not.toContain('s3cret');
      expect(text).toContain(failure.deliveryId);
      expect(text).toContain(`GET ${PUBLIC_URL}/api/v1/orders/order-1001/payment`);
      expect(text).not.toContain('What failed');
    }
    expect(deliveryFailureEmail(failure, context).text).toContain('What failed');
  });

  it('refuses an SMTP_URL that is not smtp:// or smtps://, without echoing it', () => {
    const config = { smtpUrl: 'https://user:topsecret@mail.example', publicUrl: PUBLIC_URL };
    const make = () => createMailer(config as Parameters<typeof createMailer>[0], createLogger('silent'));
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(/smtp:\/\/ or smtps:\/\//);
    expect(make).not.toThrow(/topsecret/);
  });
});

describe.each(DIALECTS)('merchant emails about failed deliveries (%s)', (dialect) => {
  let t: TestGateway;
  let deps: Deps;

  beforeAll(async () => {
    t = await startTestGateway(dialect, { env: { GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000' } });
    deps = t.gateway.deps;
    // The tests send the outbox themselves; the gateway's own scheduler must not take their emails.
    await t.gateway.scheduler.stop();
  });

  afterAll(async () => {
    await t?.close();
  });

  afterEach(async () => {
    // Emails a test left pending must not be claimed by the next test's sender.
    await deps.db
      .updateTable('merchant_emails')
      .set({ status: 'failed', next_attempt_at: null })
      .where('status', '=', 'pending')
      .execute();
  });

  interface Shop {
    merchantId: string;
    testKey: string;
    domainId: string;
    paymentUuid: string;
    orderId: string;
    failure(overrides?: Partial<DeliveryFailure>): DeliveryFailure;
  }

  /** A merchant (with `email`, if given) and one payment on its hosted domain. */
  async function shop(email?: string): Promise<Shop> {
    const m = await t.merchant(email === undefined ? {} : { email });
    const res = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    expect(res.status, res.text).toBe(201);
    const row = await findPaymentRow(deps.db, String(res.body.uuid));
    if (row === undefined) throw new Error('payment row missing');
    return {
      merchantId: m.merchantId,
      testKey: m.testKey,
      domainId: row.domain_id,
      paymentUuid: row.id,
      orderId: row.order_id,
      failure: (overrides = {}) => ({
        merchantId: m.merchantId,
        domainId: row.domain_id,
        deliveryId: deps.ids.uuid(deps.clock.nowMs()),
        url: WEBHOOK_URL,
        event: 'transaction.status.updated',
        paymentUuid: row.id,
        orderId: row.order_id,
        attempts: 4,
        lastStatusCode: 503,
        lastError: null,
        ...overrides,
      }),
    };
  }

  const queue = (input: DeliveryFailure, on: Deps = deps) =>
    on.transact((trx) => queueDeliveryFailureEmail(on, trx, input));

  async function emailsOf(merchantId: string): Promise<MerchantEmailRow[]> {
    return listMerchantEmails(deps.db, merchantId);
  }

  async function only(merchantId: string): Promise<MerchantEmailRow> {
    const rows = await emailsOf(merchantId);
    expect(rows).toHaveLength(1);
    return rows[0] as MerchantEmailRow;
  }

  async function reread(row: MerchantEmailRow): Promise<MerchantEmailRow> {
    const found = await findMerchantEmail(deps.db, row.id);
    if (found === undefined) throw new Error('email row missing');
    return found;
  }

  function smtpMailer(port: number): Mailer {
    return createMailer({ ...deps.config, smtpUrl: `smtp://127.0.0.1:${port}` }, createLogger('silent'));
  }

  it('sends the email to the merchant over SMTP with what to check, and no key or secret', async () => {
    const s = await shop(OWNER);
    const smtp = await startSmtp();
    const mailer = smtpMailer(smtp.port);
    try {
      expect(mailer.kind).toBe('smtp');
      const failure = s.failure({ attempts: 4, lastStatusCode: 502 });
      expect(await queue(failure)).toBe(true);
      const queued = await only(s.merchantId);
      expect(queued).toMatchObject({
        kind: 'webhook_delivery_failed',
        domain_id: s.domainId,
        recipient: OWNER,
        status: 'pending',
        attempts: 0,
        next_attempt_at: toStoredInstant(t.clock.nowMs()),
      });

      expect(await sendMerchantEmails(deps, mailer, 20)).toBe(1);
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.received[0] as ReceivedMail;
      expect(mail.from).toBe('no-reply@gateway.test');
      expect(mail.to).toEqual([OWNER]);
      const { headers, text } = parseMessage(mail.raw);
      expect(headers.get('to')).toBe(OWNER);
      expect(headers.get('from')).toBe('Payment Gateway <no-reply@gateway.test>');
      expect(headers.get('subject')).toBe('Action needed: webhook delivery to shop.example failed');
      expect(text.trimEnd()).toBe(queued.body.trimEnd());
      for (const expected of [
        `Webhook URL:   ${WEBHOOK_URL}\n`,
        `Payment UUID:  ${s.paymentUuid}\n`,
        `Order ID:      ${s.orderId}\n`,
        `Delivery ID:   ${failure.deliveryId}\n`,
        'Attempts:      4\n',
        'Last result:   HTTP 502\n',
        `GET ${PUBLIC_URL}/api/v1/orders/${s.orderId}/payment\n`,
        '2xx status within 10 seconds',
        'redirects (3xx) are not followed',
        'public address',
      ]) {
        expect(text).toContain(expected);
      }
      const domain = await deps.db
        .selectFrom('domains')
        .select('webhook_secret')
        .where('id', '=', s.domainId)
        .executeTakeFirstOrThrow();
      for (const secret of ['whsec_', 'sk_', domain.webhook_secret, s.testKey]) {
        expect(mail.raw).not.toContain(secret);
        expect(queued.body).not.toContain(secret);
      }

      const sent = await reread(queued);
      expect(sent).toMatchObject({
        status: 'sent',
        attempts: 1,
        sent_at: toStoredInstant(t.clock.nowMs()),
        next_attempt_at: null,
        last_error: null,
      });
      // Sent once: nothing is due any more.
      expect(await sendMerchantEmails(deps, mailer, 20)).toBe(0);
      expect(smtp.received).toHaveLength(1);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });

  it('queues at most one email per domain every 6 hours; each domain has its own 6 hours', async () => {
    const s = await shop(OWNER);
    const second = 'second.shop.example';
    await addDomain(deps, { merchantId: s.merchantId, host: second, verified: false });
    const secondDomain = await findMerchantDomain(deps.db, s.merchantId, second);
    if (secondDomain === undefined) throw new Error('second domain missing');
    const start = t.clock.nowMs();

    expect(await queue(s.failure())).toBe(true);
    expect(await queue(s.failure())).toBe(false);
    t.clock.advance(6 * HOUR_MS - 1_000);
    expect(await queue(s.failure({ lastStatusCode: null, lastError: 'timeout' }))).toBe(false);
    // The other domain of the same merchant is not held back by the first one's email.
    expect(await queue(s.failure({ domainId: secondDomain.id }))).toBe(true);
    expect(await queue(s.failure({ domainId: secondDomain.id }))).toBe(false);

    let rows = await emailsOf(s.merchantId);
    expect(rows.map((r) => r.domain_id).sort()).toEqual([s.domainId, secondDomain.id].sort());
    const first = await deps.db
      .selectFrom('domains')
      .select('failure_email_at')
      .where('id', '=', s.domainId)
      .executeTakeFirstOrThrow();
    expect(first.failure_email_at).toBe(toStoredInstant(start));

    // 6 hours after the first email, the first domain may have another.
    t.clock.advance(1_000);
    expect(await queue(s.failure())).toBe(true);
    expect(await queue(s.failure())).toBe(false);
    // ...while the second domain's 6 hours started later and are not over.
    expect(await queue(s.failure({ domainId: secondDomain.id }))).toBe(false);
    rows = await emailsOf(s.merchantId);
    expect(rows.filter((r) => r.domain_id === s.domainId)).toHaveLength(2);
    expect(rows.filter((r) => r.domain_id === secondDomain.id)).toHaveLength(1);
  });

  it('queues exactly one email when deliveries of one domain fail at the same time', async () => {
    const s = await shop(OWNER);
    const results = await Promise.all(Array.from({ length: 10 }, () => queue(s.failure())));
    expect(results.filter((queued) => queued)).toHaveLength(1);
    expect(await emailsOf(s.merchantId)).toHaveLength(1);
  });

  it('retries 5 minutes after the SMTP server was down, sends when it is back, fails after 5 attempts', async () => {
    const s = await shop(OWNER);
    const port = await freePort();
    const mailer = smtpMailer(port);
    let smtp: TestSmtp | undefined;
    try {
      expect(await queue(s.failure())).toBe(true);
      const email = await only(s.merchantId);
      const failedAt = t.clock.nowMs();
      expect(await sendMerchantEmails(deps, mailer, 20)).toBe(1);
      let row = await reread(email);
      expect(row).toMatchObject({
        status: 'pending',
        attempts: 1,
        next_attempt_at: toStoredInstant(failedAt + 5 * MINUTE_MS),
        sent_at: null,
      });
      expect(row.last_error).toMatch(/ECONNREFUSED/);

      // Not due before the 5 minutes are over.
      t.clock.advance(5 * MINUTE_MS - 1_000);
      expect(await sendMerchantEmails(deps, mailer, 20)).toBe(0);
      expect((await reread(email)).attempts).toBe(1);

      smtp = await startSmtp(port);
      t.clock.advance(1_000);
      expect(await sendMerchantEmails(deps, mailer, 20)).toBe(1);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]?.to).toEqual([OWNER]);
      row = await reread(email);
      expect(row).toMatchObject({ status: 'sent', attempts: 2, sent_at: toStoredInstant(t.clock.nowMs()) });
      await smtp.close();
      smtp = undefined;

      // The server is down again for the next email (6 hours later): five attempts, then `failed`.
      t.clock.advance(6 * HOUR_MS);
      expect(await queue(s.failure())).toBe(true);
      const next = (await emailsOf(s.merchantId)).find((r) => r.status === 'pending');
      if (next === undefined) throw new Error('second email missing');
      for (let attempt = 1; attempt <= 4; attempt++) {
        expect(await sendMerchantEmails(deps, mailer, 20)).toBe(1);
        expect(await reread(next)).toMatchObject({
          status: 'pending',
          attempts: attempt,
          next_attempt_at: toStoredInstant(t.clock.nowMs() + 5 * MINUTE_MS),
        });
        t.clock.advance(5 * MINUTE_MS);
      }
      expect(await sendMerchantEmails(deps, mailer, 20)).toBe(1);
      row = await reread(next);
      expect(row).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null, sent_at: null });
      expect(row.last_error).toMatch(/ECONNREFUSED/);
      t.clock.advance(HOUR_MS);
      expect(await sendMerchantEmails(deps, mailer, 20)).toBe(0);
      expect((await reread(next)).attempts).toBe(5);
    } finally {
      mailer.close();
      await smtp?.close();
    }
  });

  it('stops a batch at the first failed send and lets the scheduler move on', async () => {
    const a = await shop(OWNER);
    const b = await shop(OWNER);
    const mailer = smtpMailer(await freePort());
    try {
      expect(await queue(a.failure())).toBe(true);
      expect(await queue(b.failure())).toBe(true);
      const work = sendMerchantEmailsWork(deps, mailer);
      expect(work.name).toBe('send-merchant-emails');
      expect(await work.runBatch()).toBe(0);
      const attempts = [(await only(a.merchantId)).attempts, (await only(b.merchantId)).attempts];
      expect(attempts).toEqual([1, 0]);
    } finally {
      mailer.close();
    }
  });

  it('without SMTP_URL writes the email to the log and keeps it as logged', async () => {
    const s = await shop(OWNER);
    const { logger, lines } = capturedLogger();
    const mailer = createMailer({ ...deps.config, smtpUrl: undefined }, logger);
    expect(mailer.kind).toBe('log');
    const failure = s.failure({ url: `${WEBHOOK_URL}?token=url-token-s3cret` });
    expect(await queue(failure)).toBe(true);
    const email = await only(s.merchantId);

    expect(await sendMerchantEmails(deps, mailer, 20)).toBe(1);
    expect(await reread(email)).toMatchObject({ status: 'logged', attempts: 1, sent_at: null, next_attempt_at: null });
    const logged = lines.filter((line) => line.to === OWNER);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 30, to: OWNER, subject: email.subject, text: email.body });
    expect(String(logged[0]?.text)).toContain(failure.deliveryId);
    // A token in the webhook URL is in neither the stored email nor the log line.
    expect(email.body).toContain(`Webhook URL:   ${WEBHOOK_URL}?token=***\n`);
    expect(JSON.stringify(lines)).not.toContain('url-token-s3cret');
    expect(JSON.stringify(await emailsOf(s.merchantId))).not.toContain('url-token-s3cret');
    expect(await sendMerchantEmails(deps, mailer, 20)).toBe(0);
    expect(lines.filter((line) => line.to === OWNER)).toHaveLength(1);
  });

  it('keeps the email as logged, with a warning, when the merchant has no email address', async () => {
    const s = await shop();
    const smtp = await startSmtp();
    const mailer = smtpMailer(smtp.port);
    const { logger, lines } = capturedLogger();
    const logging: Deps = { ...deps, logger };
    try {
      expect(await queue(s.failure(), logging)).toBe(true);
      const email = await only(s.merchantId);
      expect(email.recipient).toBeNull();

      expect(await sendMerchantEmails(logging, mailer, 20)).toBe(1);
      expect(smtp.received).toHaveLength(0);
      expect(await reread(email)).toMatchObject({
        status: 'logged',
        attempts: 1,
        sent_at: null,
        last_error: 'the merchant has no email address',
      });
      const warnings = lines.filter((line) => line.email_id === email.id);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatchObject({ level: 40, merchant_id: s.merchantId, subject: email.subject });
      expect(String(warnings[0]?.msg)).toMatch(/no email address/);
    } finally {
      mailer.close();
      await smtp.close();
    }
  });
});

/**
 * "Send a test event": a signed sample `transaction.status.updated` (./events.ts
 * `testStatusUpdatedEvent`) sent now to the domain's webhook URL, outside the outbox and its
 * retries, with the same body shape, headers, secrets and outbound guard as real deliveries. The
 * merchant sees what the receiver answered. Used by the CLI (`webhook test`) and the dashboard.
 */
import { toStoredInstant } from '../domain/clock.js';
import { maskedUrl } from '../domain/masked-url.js';
import { requireDomain } from '../merchants/domains.service.js';
import { OperatorError } from '../merchants/operator.js';
import type { Deps } from '../runtime/deps.js';
import { monotonicMs } from '../runtime/system.js';
import { deliveryBody } from './dispatcher.js';
import { testStatusUpdatedEvent } from './events.js';
import { openWebhookSecrets, signingSecrets } from './secrets.js';
import { createWebhookSender, type WebhookSender } from './sender.js';
import { signatureHeaders } from './signer.js';

/** Bytes of the receiver's answer shown back. */
export const TEST_EVENT_ANSWER_BYTES = 1024;

export interface TestEventResult {
  merchant_id: string;
  host: string;
  /** The webhook URL, credentials and query values hidden. */
  url: string;
  delivery_id: string;
  event: 'transaction.status.updated';
  delivered: boolean;
  status_code: number | null;
  /** The start of the receiver's answer (at most `TEST_EVENT_ANSWER_BYTES` bytes). */
  answer: string | null;
  duration_ms: number;
  error: string | null;
}

/**
 * Sends the test event to the domain's webhook URL and answers the outcome. `sender` defaults to
 * one made for this call (guarded as `GATEWAY_ALLOW_PRIVATE_WEBHOOKS` says) and closed after it.
 */
export async function sendTestEvent(
  deps: Deps,
  input: { merchantId: string; host: string },
  sender?: WebhookSender,
): Promise<TestEventResult> {
  const domain = await requireDomain(deps, input.merchantId, input.host);
  const url = domain.webhook_url;
  if (url === null) {
    throw new OperatorError(`${domain.host} has no webhook URL: set one first (domain add --webhook-url URL)`);
  }
  const nowMs = deps.clock.nowMs();
  const deliveryId = deps.ids.uuid(nowMs);
  const timestamp = Math.floor(nowMs / 1000);
  const body = deliveryBody(deliveryId, testStatusUpdatedEvent(toStoredInstant(nowMs)), timestamp);
  const secrets = signingSecrets(openWebhookSecrets(deps.sealer, domain.id, domain), nowMs);
  const headers = signatureHeaders(deliveryId, timestamp, body, secrets);
  const own = sender === undefined ? createWebhookSender({ allowPrivate: deps.config.allowPrivateWebhooks }) : null;
  const started = monotonicMs();
  let outcome: Awaited<ReturnType<WebhookSender['send']>>;
  try {
    outcome = await (sender ?? (own as WebhookSender)).send(url, body, headers, {
      keepAnswerBytes: TEST_EVENT_ANSWER_BYTES,
    });
  } finally {
    own?.close();
  }
  const durationMs = Math.round(monotonicMs() - started);
  deps.logger.info(
    { merchant_id: input.merchantId, host: domain.host, delivered: outcome.delivered, status: outcome.statusCode },
    'webhook test event sent',
  );
  return {
    merchant_id: input.merchantId,
    host: domain.host,
    url: maskedUrl(url) ?? url,
    delivery_id: deliveryId,
    event: 'transaction.status.updated',
    delivered: outcome.delivered,
    status_code: outcome.statusCode,
    answer: outcome.answer ?? null,
    duration_ms: durationMs,
    error: outcome.delivered ? null : outcome.error,
  };
}

/**
 * A domain's webhook settings as the dashboard shows and changes them: the URL (validated as
 * `domain add --webhook-url` is: http(s), no private address unless `GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`)
 * and, during a secret rotation, when its 24 hours end (the old secret stops signing then).
 */
import { toStoredInstant } from '../domain/clock.js';
import { addDomain, requireDomain } from '../merchants/domains.service.js';
import type { Deps } from '../runtime/deps.js';

export interface WebhookSettingsView {
  merchant_id: string;
  host: string;
  webhook_url: string | null;
  /** The rotation in progress, or null: when the next secret becomes the only one, and how long until then. */
  secret_rotation: { ends_at: string; seconds_left: number } | null;
}

export async function getWebhookSettings(
  deps: Deps,
  input: { merchantId: string; host: string },
): Promise<WebhookSettingsView> {
  const domain = await requireDomain(deps, input.merchantId, input.host);
  const nowMs = deps.clock.nowMs();
  const endsAt = domain.webhook_secret_next === null ? null : domain.webhook_secret_next_at;
  const rotating = endsAt !== null && endsAt > toStoredInstant(nowMs);
  return {
    merchant_id: input.merchantId,
    host: domain.host,
    webhook_url: domain.webhook_url,
    secret_rotation: rotating
      ? { ends_at: endsAt, seconds_left: Math.ceil((Date.parse(endsAt) - nowMs) / 1000) }
      : null,
  };
}

/** Sets the domain's webhook URL; refused (OperatorError) when it is not one deliveries may reach. */
export async function setWebhookUrl(
  deps: Deps,
  input: { merchantId: string; host: string; url: string },
): Promise<WebhookSettingsView> {
  await addDomain(deps, { merchantId: input.merchantId, host: input.host, verified: false, webhookUrl: input.url });
  return getWebhookSettings(deps, input);
}

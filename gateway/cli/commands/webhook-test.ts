/**
 * `gateway webhook test --merchant ID --host HOST`: sends a signed test `transaction.status.updated`
 * to the domain's webhook URL now and prints what the receiver answered. `--json` prints
 * `{merchant_id, host, url, delivery_id, event, delivered, status_code, answer, duration_ms, error}`;
 * exits 1 when the receiver did not take it (no 2xx).
 */
import type { Deps } from '../../runtime/deps.js';
import { sendTestEvent } from '../../webhooks/test-event.service.js';

export function webhookTest(
  merchantId: string,
  host: string,
): (deps: Deps) => Promise<{ json: unknown; text: string; exitCode?: number }> {
  return async (deps) => {
    const result = await sendTestEvent(deps, { merchantId, host });
    const answer = result.answer === null || result.answer === '' ? '' : `\nAnswer: ${result.answer}`;
    if (result.delivered) {
      return {
        json: result,
        text: `Test event ${result.delivery_id} delivered to ${result.url}: HTTP ${result.status_code} in ${result.duration_ms} ms.${answer}`,
      };
    }
    return {
      json: result,
      text: `Test event ${result.delivery_id} to ${result.url} failed after ${result.duration_ms} ms: ${result.error}.${answer}`,
      exitCode: 1,
    };
  };
}

/**
 * `gateway webhook test|resend`. `--json` shapes (README "CLI"):
 *
 * - `webhook test --merchant ID --host HOST`: sends a signed test `transaction.status.updated` to
 *   the domain's webhook URL now and prints what the receiver answered: `{merchant_id, host, url,
 *   delivery_id, event, delivered, status_code, answer, duration_ms, error}`; exits 1 when the
 *   receiver did not take it (no 2xx);
 * - `webhook resend --event ID`: queues a new delivery of a past event to its target as it is now:
 *   `{event_id, delivery_id, url, status, attempts, next_attempt_at, created_at}`.
 */
import { ApiError } from '../../domain/errors.js';
import { OperatorError } from '../../merchants/operator.js';
import { resendEvent } from '../../webhooks/resend.service.js';
import { sendTestEvent } from '../../webhooks/test-event.service.js';
import type { CommandTable } from '../command.js';
import { required } from '../options.js';

export const webhookCommands: CommandTable = {
  'webhook test': (values) => {
    const merchantId = required(values, 'merchant');
    const host = required(values, 'host');
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
  },

  'webhook resend': (values) => {
    const eventId = required(values, 'event');
    return async (deps) => {
      try {
        const resent = await resendEvent(deps, eventId);
        return {
          json: resent,
          text: `Event ${resent.event_id} queued again as delivery ${resent.delivery_id} to ${resent.url}.`,
        };
      } catch (error) {
        if (error instanceof ApiError) throw new OperatorError(error.message);
        throw error;
      }
    };
  },
};

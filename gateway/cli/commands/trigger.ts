/**
 * `gateway trigger <event> (--api-key sk_test_... | --merchant ID) [--host HOST]`: makes one real
 * sandbox event of the account now (gateway/payments/trigger.service.ts), which `gateway listen`
 * forwards and which is delivered like any other. Events: `payment.completed`, `payment.failed`,
 * `payment.refunded`, `transaction.status.updated` (a completed payment).
 *
 * `--json` prints `{"triggered", "merchant_id", "payment_uuid", "order_id", "domain", "status",
 * "events": [{"event_id", "event"}]}`.
 */
import { ApiError } from '../../domain/errors.js';
import { OperatorError } from '../../merchants/operator.js';
import { TRIGGER_EVENTS, type TriggerEvent, type TriggerResult, triggerEvent } from '../../payments/trigger.service.js';
import type { Deps } from '../../runtime/deps.js';
import { type AccountFlags, type AccountValues, accountFlags, findTestAccount } from './test-account.js';

export interface TriggerInput {
  readonly event: TriggerEvent;
  readonly account: AccountFlags;
}

/** Checks the command line (`args`: the words after `trigger`); `usage` makes its refusal. */
export function triggerInput(
  args: readonly string[],
  values: AccountValues,
  usage: (message: string) => Error,
): TriggerInput {
  const [event, ...extra] = args;
  const choices = TRIGGER_EVENTS.join(', ');
  if (event === undefined) throw usage(`the event to trigger is required: one of ${choices}`);
  if (extra.length > 0) throw usage(`one event at a time (got "${args.join(' ')}")`);
  if (!(TRIGGER_EVENTS as readonly string[]).includes(event)) {
    throw usage(`"${event}" cannot be triggered: one of ${choices}`);
  }
  return { event: event as TriggerEvent, account: accountFlags(values, usage) };
}

function text(result: TriggerResult): string {
  return [
    `Triggered ${result.triggered}: sandbox payment ${result.payment_uuid} (order ${result.order_id}, ${result.domain}), now ${result.status}.`,
    ...result.events.map((e) => `  ${e.event}  event ${e.event_id}`),
  ].join('\n');
}

export function trigger(input: TriggerInput): (deps: Deps) => Promise<{ json: unknown; text: string }> {
  return async (deps) => {
    const account = await findTestAccount(deps, input.account);
    try {
      const result = await triggerEvent(deps, {
        principal: account.principal,
        event: input.event,
        domain: account.domain?.host ?? null,
      });
      return { json: result, text: text(result) };
    } catch (error) {
      if (error instanceof ApiError) throw new OperatorError(error.message);
      throw error;
    }
  };
}

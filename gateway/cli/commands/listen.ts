/**
 * `gateway listen --forward-to URL (--api-key sk_test_... | --merchant ID) [--host HOST]`: forwards
 * the account's test events, as they are written, to one address (a local server, typically), each
 * signed exactly as a real delivery with its domain's secret, which is printed first. Each event is
 * printed with the answer; Ctrl-C (SIGINT) or SIGTERM stops. Nothing is sent anywhere else, and
 * nothing is written. See gateway/webhooks/listen.service.ts.
 *
 * `--json` prints one JSON object per line: `{"ready": true, "merchant_id", "forward_to",
 * "signing_secrets": [{"host", "secret", "next_secret", "next_secret_from"}]}`, then one per event
 * `{"event_id", "event", "payment_uuid", "payment_status", "delivery_id", "delivered",
 * "status_code", "duration_ms", "error"}`, and at the end `{"stopped": true, "forwarded", "failed"}`.
 */
import { toStoredInstant } from '../../domain/clock.js';
import type { Deps } from '../../runtime/deps.js';
import { systemClock } from '../../runtime/system.js';
import {
  type ForwardedEvent,
  forwardEvent,
  type SigningSecret,
  signingSecretsOf,
  TestEventTail,
} from '../../webhooks/listen.service.js';
import { createWebhookSender } from '../../webhooks/sender.js';
import { type AccountFlags, type AccountValues, accountFlags, findTestAccount } from './test-account.js';

/** How often the database is asked for new events. */
export const LISTEN_POLL_MS = 250;

export interface ListenInput {
  readonly forwardTo: string;
  readonly account: AccountFlags;
}

/** Checks the command line; `usage` makes its refusal. */
export function listenInput(
  values: AccountValues & { readonly 'forward-to'?: string | undefined },
  usage: (message: string) => Error,
): ListenInput {
  const raw = values['forward-to'];
  if (raw === undefined || raw === '') throw usage('--forward-to is required (e.g. http://localhost:3000/webhooks)');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw usage(`--forward-to "${raw}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage('--forward-to must be an http(s) URL');
  return { forwardTo: url.toString(), account: accountFlags(values, usage) };
}

/** Where `listen` prints as it goes. */
export interface ListenStream {
  /** One line at a time, newline included. */
  write(text: string): unknown;
  /** Trouble that does not stop it (the database could not be read): one line. */
  warn(text: string): unknown;
  readonly json: boolean;
}

function secretLine(s: SigningSecret): string {
  if (s.next_secret === null) return `Signing secret of ${s.host}: ${s.secret}`;
  return `Signing secret of ${s.host}: ${s.secret} (X-Service-Signature); ${s.next_secret} signs X-Service-Signature-Next and replaces it at ${s.next_secret_from}`;
}

function eventLine(at: number, f: ForwardedEvent): string {
  const answer =
    f.status_code === null
      ? `no answer: ${f.error}`
      : f.error === null || f.error === `HTTP ${f.status_code}`
        ? String(f.status_code)
        : `${f.status_code}: ${f.error}`;
  const time = toStoredInstant(at).slice(11, 19);
  return `${time}  ${f.event} (${f.payment_status})  payment ${f.payment_uuid}  event ${f.event_id}  <-- ${answer} in ${f.duration_ms} ms`;
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Stops on `signal`, or else on SIGINT or SIGTERM. */
export function listen(
  input: ListenInput,
  stream: ListenStream,
  options: { signal?: AbortSignal; pollMs?: number } = {},
): (deps: Deps) => Promise<{ json: unknown; text: string }> {
  return async (deps) => {
    const account = await findTestAccount(deps, input.account);
    const filter = { merchantId: account.principal.merchantId, domainId: account.domain?.id ?? null };
    const secrets = await signingSecretsOf(deps, filter);
    const tail = await TestEventTail.start(deps, filter, systemClock);

    const stop = new AbortController();
    const onSignal = () => stop.abort();
    if (options.signal === undefined) {
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
    } else if (options.signal.aborted) stop.abort();
    else options.signal.addEventListener('abort', onSignal, { once: true });

    // The one address given is the only one ever called; it is usually local, so private addresses are allowed.
    const sender = createWebhookSender({ allowPrivate: true, maxSocketsPerHost: 1 });
    stop.signal.addEventListener('abort', () => sender.close(), { once: true });
    const whose = account.domain === null ? `merchant ${filter.merchantId}` : account.domain.host;
    if (stream.json) {
      stream.write(
        `${JSON.stringify({ ready: true, merchant_id: filter.merchantId, forward_to: input.forwardTo, signing_secrets: secrets })}\n`,
      );
    } else {
      stream.write(
        [
          `Ready: forwarding the test events of ${whose} to ${input.forwardTo} (Ctrl-C to stop).`,
          ...secrets.map(secretLine),
          'Each event is signed as its real deliveries are: verify X-Service-Signature (or webhook-signature) with that secret.',
          '',
        ].join('\n'),
      );
    }

    let forwarded = 0;
    let failed = 0;
    try {
      while (!stop.signal.aborted) {
        let events: Awaited<ReturnType<TestEventTail['next']>>;
        try {
          events = await tail.next();
        } catch (error) {
          stream.warn(`could not read the events (trying again): ${error instanceof Error ? error.message : error}\n`);
          await pause(5 * (options.pollMs ?? LISTEN_POLL_MS), stop.signal);
          continue;
        }
        for (const event of events) {
          if (stop.signal.aborted) break;
          const result = await forwardEvent(deps, sender, systemClock, input.forwardTo, event);
          if (result.delivered) forwarded += 1;
          else failed += 1;
          stream.write(stream.json ? `${JSON.stringify(result)}\n` : `${eventLine(systemClock.nowMs(), result)}\n`);
        }
        if (events.length === 0) await pause(options.pollMs ?? LISTEN_POLL_MS, stop.signal);
      }
    } finally {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      sender.close();
    }
    return {
      json: { stopped: true, forwarded, failed },
      text: `Stopped: ${forwarded} event${forwarded === 1 ? '' : 's'} taken (2xx), ${failed} not.`,
    };
  };
}

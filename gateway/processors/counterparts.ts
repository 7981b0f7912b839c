/**
 * Each remote service the gateway calls (a processor's address, the fiscal system's) is a
 * counterpart with its own bounded concurrency and circuit breaker, so that one that stops
 * answering costs the others nothing (docs/operations.md "Slow counterparts"):
 *
 * - **Bounded concurrency.** At most `background` calls of background work (polls, refund checks,
 *   receipt tries and searches) and `total` calls of any kind (a buyer's start or return, a refund
 *   request, background work) go to one counterpart at once. A call beyond that is not queued: it
 *   is refused at once, as not sent (`BUSY`), and the work that made it tries again later. Calls
 *   never wait for a slot, so nothing piles up behind a counterpart that hangs.
 * - **Circuit breaker.** `failures` calls in a row without an answer (a timeout, a connection
 *   refused, reset or cut) open the breaker: for `openMs` every call is refused at once, as not
 *   sent (`CIRCUIT_OPEN`). Then one call goes through as a probe: an answer closes the breaker, a
 *   failure opens it again for twice as long, up to `maxOpenMs`. An answer of any kind (an error
 *   page included) is an answer: the breaker is about counterparts that do not answer.
 *
 * A counterpart is a service at one address (`<name> <origin>`): a merchant whose settings point
 * at an address that hangs only ever stops its own calls. The state is per instance and in
 * memory: each instance learns for itself, and a restart starts closed. Durations are measured on
 * the monotonic clock (never the service clock: a breaker is about real seconds).
 */
import type { Logger } from 'pino';
import { ProcessorCallError, type ProcessorHttp, type ProcessorReply, type ProcessorRequest } from './http.js';

export interface CounterpartLimits {
  /** Calls of background work to one counterpart at once. */
  readonly background: number;
  /** Calls of any kind to one counterpart at once. */
  readonly total: number;
  /** Calls in a row without an answer that open the breaker. */
  readonly failures: number;
  /** How long the breaker stays open the first time; doubled after each failed probe. */
  readonly openMs: number;
  readonly maxOpenMs: number;
}

export const DEFAULT_COUNTERPART_LIMITS: CounterpartLimits = {
  background: 4,
  total: 32,
  failures: 3,
  openMs: 30_000,
  maxOpenMs: 5 * 60_000,
};

/** Background work (polls, checks, receipts) or a call a person or a processor is waiting for. */
export type CallPriority = 'background' | 'interactive';

/** Why a call was not made, and when the counterpart may take calls again (ms from now). */
export interface Refusal {
  readonly reason: 'busy' | 'open';
  readonly retryInMs: number;
}

/** How long a call refused for `busy` waits before its work tries again. */
export const BUSY_RETRY_MS = 15_000;

/** Error codes of a call that got no answer: they count toward opening the breaker. */
const NO_ANSWER_CODES = new Set([
  'TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);

function isNoAnswer(error: unknown): boolean {
  if (!(error instanceof ProcessorCallError)) return false;
  if (error.code === undefined) return error.reached;
  return NO_ANSWER_CODES.has(error.code);
}

class Counterpart {
  readonly #key: string;
  readonly #limits: CounterpartLimits;
  readonly #logger: Logger | undefined;
  #active = 0;
  #background = 0;
  #failures = 0;
  /** Monotonic ms until which calls are refused; null: closed. */
  #openUntil: number | null = null;
  #openMs: number;
  #probing = false;

  constructor(key: string, limits: CounterpartLimits, logger: Logger | undefined) {
    this.#key = key;
    this.#limits = limits;
    this.#logger = logger;
    this.#openMs = limits.openMs;
  }

  get state(): 'closed' | 'open' {
    return this.#openUntil === null ? 'closed' : 'open';
  }

  /** A refusal if a call of `priority` may not start now; else the call is counted as started. */
  enter(priority: CallPriority, now: number): Refusal | { readonly probe: boolean } {
    let probe = false;
    if (this.#openUntil !== null) {
      if (now < this.#openUntil || this.#probing) {
        return { reason: 'open', retryInMs: Math.max(1_000, this.#openUntil - now) };
      }
      // The breaker's time is over: this call is the probe; the others wait for its outcome.
      probe = true;
      this.#probing = true;
    }
    const full =
      this.#active >= this.#limits.total || (priority === 'background' && this.#background >= this.#limits.background);
    if (full) {
      if (probe) this.#probing = false;
      return { reason: 'busy', retryInMs: BUSY_RETRY_MS };
    }
    this.#active += 1;
    if (priority === 'background') this.#background += 1;
    return { probe };
  }

  leave(priority: CallPriority, probe: boolean, outcome: 'answer' | 'no_answer' | 'other', now: number): void {
    this.#active -= 1;
    if (priority === 'background') this.#background -= 1;
    if (probe) this.#probing = false;
    if (outcome === 'answer') {
      if (this.#openUntil !== null) this.#logger?.info({ counterpart: this.#key }, 'counterpart answers again');
      this.#failures = 0;
      this.#openUntil = null;
      this.#openMs = this.#limits.openMs;
      return;
    }
    if (outcome !== 'no_answer') return;
    this.#failures += 1;
    if (probe) {
      this.#openMs = Math.min(this.#openMs * 2, this.#limits.maxOpenMs);
      this.#open(now);
    } else if (this.#openUntil === null && this.#failures >= this.#limits.failures) {
      this.#open(now);
    }
  }

  #open(now: number): void {
    this.#openUntil = now + this.#openMs;
    this.#logger?.warn(
      { counterpart: this.#key, failures: this.#failures, open_ms: this.#openMs },
      'counterpart does not answer: calls paused',
    );
  }

  refusalNow(now: number): Refusal | null {
    if (this.#openUntil === null) return null;
    if (now >= this.#openUntil && !this.#probing) return null;
    return { reason: 'open', retryInMs: Math.max(1_000, this.#openUntil - now) };
  }
}

/** The client an adapter gets for one call: `refused` says why a request was not made. */
export interface GuardedHttp extends ProcessorHttp {
  readonly refused: Refusal | undefined;
}

/** The origin of a URL, or the text itself when it is not one (the call then fails as not sent). */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

export function counterpartKey(name: string, url: string): string {
  return `${name} ${originOf(url)}`;
}

export class Counterparts {
  readonly #limits: CounterpartLimits;
  readonly #monotonic: () => number;
  readonly #logger: Logger | undefined;
  readonly #all = new Map<string, Counterpart>();

  constructor(options: {
    readonly limits?: Partial<CounterpartLimits>;
    readonly monotonic: () => number;
    readonly logger?: Logger;
  }) {
    this.#limits = { ...DEFAULT_COUNTERPART_LIMITS, ...options.limits };
    this.#monotonic = options.monotonic;
    this.#logger = options.logger;
  }

  #of(key: string): Counterpart {
    let counterpart = this.#all.get(key);
    if (counterpart === undefined) {
      counterpart = new Counterpart(key, this.#limits, this.#logger);
      this.#all.set(key, counterpart);
    }
    return counterpart;
  }

  /** Why calls to `name` at `url` would be refused now (its breaker is open), else null. */
  refusal(name: string, url: string): Refusal | null {
    return this.#all.get(counterpartKey(name, url))?.refusalNow(this.#monotonic()) ?? null;
  }

  /** Counterparts whose breaker is open (for the operator's view and tests). */
  open(): string[] {
    return [...this.#all.entries()].filter(([, c]) => c.state === 'open').map(([key]) => key);
  }

  /** `inner` with each request admitted (or refused) by the counterpart of `name` at its address. */
  http(inner: ProcessorHttp, name: string, priority: CallPriority): GuardedHttp {
    let refused: Refusal | undefined;
    const request = async (call: ProcessorRequest): Promise<ProcessorReply> => {
      const key = counterpartKey(name, call.url);
      const counterpart = this.#of(key);
      const entry = counterpart.enter(priority, this.#monotonic());
      if ('reason' in entry) {
        refused = entry;
        throw new ProcessorCallError(
          entry.reason === 'open'
            ? `not sent: ${key} did not answer recently; calls are paused for ${Math.ceil(entry.retryInMs / 1000)} s`
            : `not sent: ${key} has as many calls in flight as it may`,
          false,
          entry.reason === 'open' ? 'CIRCUIT_OPEN' : 'BUSY',
        );
      }
      let outcome: 'answer' | 'no_answer' | 'other' = 'other';
      try {
        const reply = await inner.request(call);
        outcome = 'answer';
        return reply;
      } catch (error) {
        outcome = isNoAnswer(error) ? 'no_answer' : 'other';
        throw error;
      } finally {
        counterpart.leave(priority, entry.probe, outcome, this.#monotonic());
      }
    };
    return {
      request,
      close: () => inner.close(),
      get refused() {
        return refused;
      },
    };
  }
}

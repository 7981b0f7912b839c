/**
 * Counterparts (gateway/processors/counterparts.ts): bounded concurrency and a circuit breaker per
 * remote address. Calls beyond the bound are refused at once as not sent (never queued); calls
 * without an answer open the breaker, which refuses at once until a probe gets an answer; one
 * address's trouble never touches another's; an answer of any kind closes it.
 */
import { describe, expect, it } from 'vitest';
import { Counterparts } from '../../../gateway/processors/counterparts.js';
import { ProcessorCallError, type ProcessorHttp, type ProcessorReply } from '../../../gateway/processors/http.js';

/** A processor client whose calls end when the test says, each with an answer or an error. */
function scriptedHttp() {
  const waiting: Array<{ url: string; end: (outcome: ProcessorReply | Error) => void }> = [];
  const http: ProcessorHttp = {
    request: (call) =>
      new Promise<ProcessorReply>((resolve, reject) => {
        waiting.push({
          url: call.url,
          end: (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome)),
        });
      }),
    close: () => {},
  };
  return { http, waiting };
}

const ok: ProcessorReply = { status: 200, headers: {}, body: 'ok' };
const timeout = () => new ProcessorCallError('no answer within 10000 ms', true, 'TIMEOUT');
const settleSoon = () => new Promise((r) => setImmediate(r));

function counterparts(now: { ms: number }) {
  return new Counterparts({
    monotonic: () => now.ms,
    limits: { background: 2, total: 3, failures: 3, openMs: 1_000, maxOpenMs: 4_000 },
  });
}

const BANK = 'https://bank.example/payment/rest/getOrderStatusExtended.do';
const OTHER = 'https://other-bank.example/payment/rest/getOrderStatusExtended.do';

describe('bounded concurrency', () => {
  it('refuses background calls beyond the bound at once, as not sent, and takes them again once one ends', async () => {
    const now = { ms: 0 };
    const all = counterparts(now);
    const inner = scriptedHttp();
    const calls = [1, 2].map(() =>
      all.http(inner.http, 'arca', 'background').request({ method: 'POST', url: BANK, timeoutMs: 10_000 }),
    );
    const third = all.http(inner.http, 'arca', 'background');
    const refused = await third.request({ method: 'POST', url: BANK, timeoutMs: 10_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ProcessorCallError);
    expect(refused).toMatchObject({ reached: false, code: 'BUSY' });
    expect(third.refused).toMatchObject({ reason: 'busy' });
    expect(inner.waiting).toHaveLength(2);
    // A call a buyer waits for still goes: background work never takes the last slots.
    const interactive = all
      .http(inner.http, 'arca', 'interactive')
      .request({ method: 'POST', url: BANK, timeoutMs: 10_000 });
    expect(inner.waiting).toHaveLength(3);
    const fourth = await all
      .http(inner.http, 'arca', 'interactive')
      .request({ method: 'POST', url: BANK, timeoutMs: 10_000 })
      .catch((e: unknown) => e);
    expect(fourth).toMatchObject({ code: 'BUSY' });
    for (const call of inner.waiting.splice(0)) call.end(ok);
    await Promise.all([...calls, interactive]);
    const again = all.http(inner.http, 'arca', 'background').request({ method: 'POST', url: BANK, timeoutMs: 10_000 });
    expect(inner.waiting).toHaveLength(1);
    inner.waiting[0]?.end(ok);
    await expect(again).resolves.toEqual(ok);
  });

  it('counts each address on its own: another bank behind the same processor is not held', async () => {
    const now = { ms: 0 };
    const all = counterparts(now);
    const inner = scriptedHttp();
    const held = [1, 2].map(() =>
      all.http(inner.http, 'arca', 'background').request({ method: 'POST', url: BANK, timeoutMs: 10_000 }),
    );
    const other = all.http(inner.http, 'arca', 'background').request({ method: 'POST', url: OTHER, timeoutMs: 10_000 });
    expect(inner.waiting.map((w) => new URL(w.url).host)).toEqual([
      'bank.example',
      'bank.example',
      'other-bank.example',
    ]);
    for (const call of inner.waiting.splice(0)) call.end(ok);
    await Promise.all([...held, other]);
  });
});

describe('circuit breaker', () => {
  it('opens after calls in a row without an answer, refuses at once while open, then lets one probe through', async () => {
    const now = { ms: 0 };
    const all = counterparts(now);
    const inner = scriptedHttp();
    const request = (url = BANK) =>
      all.http(inner.http, 'arca', 'interactive').request({ method: 'POST', url, timeoutMs: 10_000 });
    for (let i = 0; i < 3; i++) {
      const call = request().catch((e: unknown) => e);
      inner.waiting.shift()?.end(timeout());
      expect(await call).toMatchObject({ code: 'TIMEOUT' });
    }
    expect(all.open()).toEqual(['arca https://bank.example']);
    expect(all.refusal('arca', BANK)).toMatchObject({ reason: 'open', retryInMs: 1_000 });
    const refused = await request().catch((e: unknown) => e);
    expect(refused).toMatchObject({ reached: false, code: 'CIRCUIT_OPEN' });
    expect(inner.waiting).toHaveLength(0);
    // Another address of the same processor is not paused.
    expect(all.refusal('arca', OTHER)).toBeNull();
    const other = request(OTHER);
    inner.waiting.shift()?.end(ok);
    await expect(other).resolves.toEqual(ok);

    now.ms = 1_000;
    const probe = request();
    expect(inner.waiting).toHaveLength(1);
    // While the probe is out, the others are still refused.
    await expect(request()).rejects.toMatchObject({ code: 'CIRCUIT_OPEN' });
    inner.waiting.shift()?.end(ok);
    await expect(probe).resolves.toEqual(ok);
    expect(all.open()).toEqual([]);
    const after = request();
    inner.waiting.shift()?.end(ok);
    await expect(after).resolves.toEqual(ok);
  });

  it('a failed probe opens it again for twice as long, up to the longest pause', async () => {
    const now = { ms: 0 };
    const all = counterparts(now);
    const inner = scriptedHttp();
    const request = () =>
      all
        .http(inner.http, 'ehdm', 'background')
        .request({ method: 'POST', url: BANK, timeoutMs: 10_000 })
        .catch((e: unknown) => e);
    for (let i = 0; i < 3; i++) {
      const call = request();
      inner.waiting.shift()?.end(timeout());
      await call;
    }
    const pauses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const refusal = all.refusal('ehdm', BANK);
      pauses.push(refusal?.retryInMs ?? 0);
      now.ms += refusal?.retryInMs ?? 0;
      const probe = request();
      inner.waiting.shift()?.end(new ProcessorCallError('connection refused', false, 'ECONNREFUSED'));
      await probe;
    }
    expect(pauses).toEqual([1_000, 2_000, 4_000, 4_000]);
  });

  it('an answer of any kind is an answer: error pages and refusals do not open it', async () => {
    const now = { ms: 0 };
    const all = counterparts(now);
    const inner = scriptedHttp();
    for (let i = 0; i < 5; i++) {
      const call = all
        .http(inner.http, 'ameria', 'background')
        .request({ method: 'POST', url: BANK, timeoutMs: 10_000 });
      inner.waiting.shift()?.end(i % 2 === 0 ? { status: 500, headers: {}, body: '<h1>500</h1>' } : ok);
      await call;
    }
    for (let i = 0; i < 5; i++) {
      const call = all
        .http(inner.http, 'ameria', 'background')
        .request({ method: 'POST', url: BANK, timeoutMs: 10_000 })
        .catch((e: unknown) => e);
      // A private address refused by the guard, or a TLS session the server refused: not the counterpart's silence.
      inner.waiting
        .shift()
        ?.end(
          new ProcessorCallError(
            'refused',
            false,
            i % 2 === 0 ? 'PRIVATE_ADDRESS' : 'ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED',
          ),
        );
      await call;
      await settleSoon();
    }
    expect(all.open()).toEqual([]);
  });

  it('an answer between failures starts the count again', async () => {
    const now = { ms: 0 };
    const all = counterparts(now);
    const inner = scriptedHttp();
    const outcomes = [timeout(), timeout(), ok, timeout(), timeout(), ok];
    for (const outcome of outcomes) {
      const call = all
        .http(inner.http, 'fastshift', 'background')
        .request({ method: 'GET', url: BANK, timeoutMs: 10_000 })
        .catch((e: unknown) => e);
      inner.waiting.shift()?.end(outcome);
      await call;
    }
    expect(all.open()).toEqual([]);
  });
});

/**
 * Nothing is lost when the gateway dies (issue "Durable outbox"): a real `gateway serve` process
 * is killed with SIGKILL while a delivery is in flight, and once restarted on the same database it
 * sends that delivery again, with the same delivery_id, after the claim lapses. A retry that was
 * scheduled before a restart is sent by the next process too.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../storage/connect.js';
import { DIALECTS, freshDatabase, type TestDatabase } from '../support/databases.js';
import { freePort } from '../support/ports.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

interface Serve {
  readonly child: ChildProcess;
  readonly base: string;
  readonly output: () => string;
}

async function serve(databaseUrl: string, env: Record<string, string> = {}): Promise<Serve> {
  const port = await freePort();
  const child = spawn('node', ['bin/gateway', 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      GATEWAY_CLOCK: 'manual',
      GATEWAY_SECRET: 'crash-test-secret-crash-test-secret-0123',
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = performance.now() + 20_000;
  while (!output.includes('listening on')) {
    if (performance.now() > deadline || child.exitCode !== null) throw new Error(`serve did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { child, base: `http://127.0.0.1:${port}`, output: () => output };
}

async function kill(server: Serve): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await once(server.child, 'exit');
}

async function call(server: Serve, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.base}${path}`, {
    method,
    headers: { 'X-Service-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe.each(DIALECTS)('webhook delivery across a crash (%s)', (dialect) => {
  let database: TestDatabase;
  let receiver: WebhookReceiver;
  let key: string;
  const running: Serve[] = [];

  beforeAll(async () => {
    database = await freshDatabase(dialect, 'gateway');
    receiver = await WebhookReceiver.start();
  });
  afterAll(async () => {
    for (const server of running) await kill(server);
    await receiver?.close();
    await database?.drop();
  });

  it('sends again, after a restart, a delivery that was in flight when the process was killed', {
    timeout: 60_000,
  }, async () => {
    const first = await serve(database.url, { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' });
    running.push(first);
    key = /sk_test_[A-Za-z0-9_-]{43}/.exec(first.output())?.[0] ?? '';
    expect(key).not.toBe('');

    receiver.replyWith((_request, index) => (index === 0 ? { hang: true } : { status: 200 }));
    const created = await call(first, key, 'POST', '/api/v1/payments', {
      amount: 2500,
      order_id: 'crash-1',
      return_url: 'http://localhost:3000/done',
      callback_url: `${receiver.url}/crash`,
    });
    expect(created.status).toBe(201);
    const paid = await call(first, key, 'POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      card_number: '4111 1111 1111 1111',
    });
    expect(paid.body.status).toBe('completed');
    // The receiver holds the first attempt open; the process dies with it in flight.
    const [inFlight] = await receiver.waitFor(1);
    await kill(first);

    const second = await serve(database.url, { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' });
    running.push(second);
    // The claim of the killed process lapses after two minutes; then the delivery is due again.
    const advanced = await call(second, key, 'POST', '/api/v1/test_helpers/clock/advance', { seconds: 150 });
    expect(advanced.status).toBe(200);
    const [, again] = await receiver.waitFor(2);
    expect(again?.json.delivery_id).toBe(inFlight?.json.delivery_id);
    expect(again?.json.transaction).toMatchObject({ uuid: created.body.uuid, status: 'completed' });

    const log = await call(second, key, 'GET', `/api/v1/payments/${created.body.uuid}/events`);
    const deliveries = (log.body.data as Array<{ deliveries: unknown[] }>)[0]?.deliveries;
    expect(deliveries).toEqual([expect.objectContaining({ status: 'delivered', attempts: 2, last_status_code: 200 })]);
    await kill(second);
  });

  it('sends after a restart a retry that was scheduled before it', { timeout: 60_000 }, async () => {
    receiver.received.length = 0;
    receiver.replyWith({ status: 200 });
    // This process may not reach loopback: its attempt fails and a retry is scheduled. It would
    // refuse a loopback callback_url, so the target is the domain's webhook URL, set as a process
    // allowing private addresses would have.
    const opened = openDatabase(database.url);
    try {
      await opened.db
        .updateTable('domains')
        .set({ webhook_url: `${receiver.url}/after-restart` })
        .where('hosted', '=', 1)
        .execute();
    } finally {
      await opened.close();
    }
    const strict = await serve(database.url);
    running.push(strict);
    const created = await call(strict, key, 'POST', '/api/v1/payments', {
      amount: 3000,
      order_id: 'crash-2',
      return_url: 'http://localhost:3000/done',
    });
    await call(strict, key, 'POST', `/api/v1/test_helpers/payments/${created.body.uuid}/pay`, {
      card_number: '4111 1111 1111 1111',
    });
    let deliveries: Array<Record<string, unknown>> = [];
    const deadline = performance.now() + 10_000;
    while (deliveries[0]?.attempts !== 1 || deliveries[0]?.status !== 'pending' || deliveries[0]?.last_error === null) {
      if (performance.now() > deadline) throw new Error(`no failed attempt: ${JSON.stringify(deliveries)}`);
      await new Promise((r) => setTimeout(r, 50));
      const log = await call(strict, key, 'GET', `/api/v1/payments/${created.body.uuid}/events`);
      deliveries = ((log.body.data as Array<{ deliveries: Array<Record<string, unknown>> }>)[0]?.deliveries ??
        []) as Array<Record<string, unknown>>;
    }
    expect(deliveries[0]?.last_error).toMatch(/^refused: 127\.0\.0\.1 is a private address/);
    await kill(strict);
    expect(receiver.received).toHaveLength(0);

    const relaxed = await serve(database.url, { GATEWAY_ALLOW_PRIVATE_WEBHOOKS: '1' });
    running.push(relaxed);
    await call(relaxed, key, 'POST', '/api/v1/test_helpers/clock/advance', { seconds: 61 });
    const [delivered] = await receiver.waitFor(1);
    expect(delivered?.json.delivery_id).toBe(deliveries[0]?.delivery_id);
    await kill(relaxed);
  });
});

/**
 * With its database out of reach, the API answers 503 `service_unavailable` with `Retry-After` (as
 * `/ready` does), not 500; once the database is back, the same request retried with its
 * Idempotency-Key is done once. The database is PostgreSQL behind a local TCP relay that the test
 * takes down (refusing new connections and cutting the open ones) and brings back.
 */

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../storage/errors.js';
import { freshDatabase, type TestDatabase } from '../support/databases.js';
import { paymentBody, startTestGateway, type TestGateway } from '../support/gateway.js';

/** A TCP relay to the database that can be taken down and brought back on the same port. */
class Relay {
  #server: Server | undefined;
  readonly #sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly host: string,
    private readonly targetPort: number,
  ) {}

  async up(): Promise<void> {
    if (this.#server !== undefined) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, this.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    if (server !== undefined) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('the API while PostgreSQL cannot be reached', () => {
  let database: TestDatabase;
  let relay: Relay;
  let t: TestGateway;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const direct = new URL(database.url);
    relay = new Relay(direct.hostname, Number(direct.port));
    await relay.up();
    const relayed = new URL(database.url);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    t = await startTestGateway('postgres', { databaseUrl: relayed.toString() });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await relay?.down();
    await database?.drop();
  });

  it('answers 503 service_unavailable with Retry-After, then does the retried request once when it is back', async () => {
    const m = await t.merchant();
    const first = await t.call('POST', '/api/v1/payments', { key: m.testKey, body: paymentBody() });
    expect(first.status).toBe(201);

    await relay.down();
    const body = paymentBody();
    const headers = { 'Idempotency-Key': `retry-${Math.random().toString(36).slice(2)}` };
    const refused = await t.call('POST', '/api/v1/payments', { key: m.testKey, body, headers });
    expect(refused.status).toBe(503);
    expect(refused.body.error).toBe('service_unavailable');
    expect(refused.headers.get('retry-after')).toBe('5');
    const read = await t.call('GET', `/api/v1/payments/${first.body.uuid}`, { key: m.testKey });
    expect(read.status).toBe(503);
    expect(read.body.error).toBe('service_unavailable');

    await relay.up();
    const retried = await t.call('POST', '/api/v1/payments', { key: m.testKey, body, headers });
    expect(retried.status).toBe(201);
    const again = await t.call('POST', '/api/v1/payments', { key: m.testKey, body, headers });
    expect(again.status).toBe(200); // the spec's replay of the original response
    expect(again.body.uuid).toBe(retried.body.uuid);
    const listed = await t.call<{ data: { order_id: string }[] }>(
      'GET',
      `/api/v1/payments?order_id=${encodeURIComponent(String(body.order_id))}`,
      { key: m.testKey },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.data.filter((p) => p.order_id === body.order_id)).toHaveLength(1);
  });
});

describe('isDatabaseUnavailable', () => {
  it('knows a refused or lost connection, a server going away, a pool timeout and a locked SQLite', () => {
    const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    expect(isDatabaseUnavailable(coded('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(coded('08006'))).toBe(true);
    expect(isDatabaseUnavailable(coded('57P01'))).toBe(true);
    expect(isDatabaseUnavailable(coded('53300'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(coded('SQLITE_BUSY', 'database is locked'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('wrapped', { cause: coded('ECONNRESET') }))).toBe(true);
  });

  it('leaves every other failure alone', () => {
    const coded = (code: string) => Object.assign(new Error('x'), { code });
    expect(isDatabaseUnavailable(coded('23505'))).toBe(false);
    expect(isDatabaseUnavailable(coded('42P01'))).toBe(false);
    expect(isDatabaseUnavailable(coded('SQLITE_CONSTRAINT_UNIQUE'))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
    expect(isDatabaseUnavailable('ECONNREFUSED')).toBe(false);
  });
});

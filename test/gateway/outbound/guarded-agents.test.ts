/**
 * The guarded agents every outbound call to an outside-chosen address goes through (webhook
 * deliveries, the connector's store calls), against a real listener on 127.0.0.1: a private
 * address is refused before a connection is made, whether it is written in the URL or answered by
 * DNS, whatever lookup the request itself asks for; development mode reaches it.
 */
import type { LookupAddress } from 'node:dns';
import http, { createServer, type Server } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGuardedAgents, type GuardedAgents } from '../../../gateway/outbound/guarded-agents.js';

/** Name resolution as a DNS server would answer it. */
function resolver(names: Record<string, string[]>): LookupFunction {
  return (hostname, options, callback) => {
    const addresses: LookupAddress[] = (names[hostname] ?? []).map((address) => ({
      address,
      family: address.includes(':') ? 6 : 4,
    }));
    if (addresses.length === 0) {
      callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 0);
    } else if (options.all === true) {
      (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
    } else {
      const first = addresses[0] as LookupAddress;
      callback(null, first.address, first.family);
    }
  };
}

let server: Server;
let port: number;
let connections = 0;
const opened: GuardedAgents[] = [];

beforeAll(async () => {
  server = createServer((_request, response) => response.end('ok'));
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
beforeEach(() => {
  connections = 0;
});
afterAll(async () => {
  for (const agents of opened) agents.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function agentsWith(options: Parameters<typeof createGuardedAgents>[0]): GuardedAgents {
  const agents = createGuardedAgents(options);
  opened.push(agents);
  return agents;
}

/** GET through the agent: the status, or the error's code and message. */
function get(
  url: string,
  agents: GuardedAgents,
  extra: http.RequestOptions = {},
): Promise<{ status: number } | { code: string | undefined; message: string }> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: agents.http, ...extra }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
    });
    request.on('error', (error) => resolve({ code: (error as { code?: string }).code, message: error.message }));
  });
}

describe('guarded agents', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'IPv6 loopback'],
    ['[::ffff:127.0.0.1]', 'IPv4-mapped loopback'],
    ['[::ffff:0:127.0.0.1]', 'IPv4-translated loopback'],
    ['[64:ff9b:1::7f00:1]', 'local-use NAT64'],
  ])('refuses the literal %s (%s) without connecting', async (host) => {
    const outcome = await get(`http://${host}:${port}/`, agentsWith({ allowPrivate: false }));
    expect(outcome).toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(connections).toBe(0);
  });

  it.each([['127.0.0.1'], ['10.1.2.3'], ['169.254.169.254'], ['::ffff:127.0.0.1'], ['::ffff:0:7f00:1']])(
    'refuses a name whose DNS answer is %s, without connecting',
    async (address) => {
      const agents = agentsWith({ allowPrivate: false, lookup: resolver({ 'shop.example': [address] }) });
      const outcome = await get(`http://shop.example:${port}/`, agents);
      expect(outcome).toEqual({
        code: 'PRIVATE_ADDRESS',
        message: `shop.example resolves to a private address (${address})`,
      });
      expect(connections).toBe(0);
    },
  );

  it('uses its own lookup even when the request names another one', async () => {
    const agents = agentsWith({ allowPrivate: false, lookup: resolver({ 'shop.example': ['127.0.0.1'] }) });
    const permissive = resolver({ 'shop.example': ['127.0.0.1'] });
    const outcome = await get(`http://shop.example:${port}/`, agents, { lookup: permissive });
    expect(outcome).toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(connections).toBe(0);
  });

  it('refuses localhost through the system resolver', async () => {
    const outcome = await get(`http://localhost:${port}/`, agentsWith({ allowPrivate: false }));
    expect(outcome).toMatchObject({ code: 'PRIVATE_ADDRESS' });
    expect(connections).toBe(0);
  });

  it('in development reaches loopback, literally and through the given lookup', async () => {
    expect(await get(`http://127.0.0.1:${port}/`, agentsWith({ allowPrivate: true }))).toEqual({ status: 200 });
    const named = agentsWith({ allowPrivate: true, lookup: resolver({ 'shop.example': ['127.0.0.1'] }) });
    expect(await get(`http://shop.example:${port}/`, named)).toEqual({ status: 200 });
    expect(connections).toBe(2);
  });
});

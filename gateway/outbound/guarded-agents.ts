/**
 * HTTP(S) agents for calls to addresses someone outside the service chose (a merchant's webhook
 * URL, a shop's store URL), so that those calls never reach a private network
 * (./private-addresses.ts):
 *
 * - an IP literal is checked before any connection is made;
 * - a name is resolved by a lookup that drops private answers, and the connection is made to the
 *   address that lookup answered (pinned: there is no second resolution to rebind);
 * - the socket's remote address is checked again once connected, before a byte is sent.
 *
 * Every request made through these agents uses the guarded lookup, whatever lookup the request
 * itself names. `allowPrivate` (`GATEWAY_ALLOW_PRIVATE_WEBHOOKS=1`, development only) turns the
 * checks off so that everything can run on one machine.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { isForbiddenAddress } from './private-addresses.js';

export interface GuardedAgentOptions {
  /** Development only: loopback and private networks may be reached. */
  readonly allowPrivate: boolean;
  /** Name resolution (the system resolver unless a test injects one). */
  readonly lookup?: LookupFunction;
  /** Keep connections open between calls (default true). */
  readonly keepAlive?: boolean;
  /** Connections kept per host (default 64). */
  readonly maxSocketsPerHost?: number;
}

export interface GuardedAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;
  /** Closes kept-alive connections. */
  destroy(): void;
}

/** A connection refused because its address is private. */
export class PrivateAddressError extends Error {
  override readonly name = 'PrivateAddressError';
  readonly code = 'PRIVATE_ADDRESS';
}

/** A lookup that answers only addresses outbound calls may reach. */
export function guardedLookup(base: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (error, addresses) => {
      if (error !== null) {
        callback(error, '', 0);
        return;
      }
      const all = addresses as unknown as LookupAddress[];
      const allowed = all.filter((a) => !isForbiddenAddress(a.address));
      if (allowed.length === 0) {
        const list = all.map((a) => a.address).join(', ');
        callback(new PrivateAddressError(`${hostname} resolves to a private address (${list})`), '', 0);
        return;
      }
      if (options.all === true) {
        (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, allowed);
      } else {
        const first = allowed[0] as LookupAddress;
        callback(null, first.address, first.family);
      }
    });
  };
}

type ConnectionOptions = http.ClientRequestArgs & { lookup?: LookupFunction; socketPath?: string };
type ConnectionCallback = (err: Error | null, stream: Duplex) => void;
type CreateConnection = (options: ConnectionOptions, callback?: ConnectionCallback) => Duplex | null | undefined;

/** Destroys the socket if the address it connected to is private. */
function checkConnected(socket: Socket): void {
  const check = () => {
    const address = socket.remoteAddress;
    if (address === undefined || isForbiddenAddress(address)) {
      socket.destroy(new PrivateAddressError(`connected address ${address ?? '(unknown)'} is private`));
    }
  };
  if (socket.remoteAddress !== undefined && !socket.connecting) check();
  else socket.once('connect', check);
}

/** Why a connection may not even be tried: a local socket, or a private IP literal. */
function refusalBeforeConnecting(options: ConnectionOptions): PrivateAddressError | null {
  if (options.socketPath !== undefined) return new PrivateAddressError('a local socket is a private address');
  const host = (options.host ?? options.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && isForbiddenAddress(host)) return new PrivateAddressError(`${host} is a private address`);
  return null;
}

/** The agent's createConnection with the checks around it. */
function guardedConnection(create: CreateConnection, lookup: LookupFunction): CreateConnection {
  return (options, callback) => {
    const refusal = refusalBeforeConnecting(options);
    if (refusal !== null) {
      if (callback === undefined) throw refusal;
      process.nextTick(() => callback(refusal, undefined as unknown as Duplex));
      return undefined;
    }
    const socket = create({ ...options, lookup }, callback);
    if (socket !== null && socket !== undefined) checkConnected(socket as Socket);
    return socket;
  };
}

export function createGuardedAgents(options: GuardedAgentOptions): GuardedAgents {
  const base = options.lookup ?? (dnsLookup as unknown as LookupFunction);
  const agentOptions = {
    keepAlive: options.keepAlive ?? true,
    maxSockets: options.maxSocketsPerHost ?? 64,
    maxFreeSockets: 16,
    scheduling: 'lifo' as const,
  };
  const httpAgent = new http.Agent(agentOptions);
  const httpsAgent = new https.Agent(agentOptions);
  if (options.allowPrivate) {
    // Development: no checks, but a lookup given by a test still decides where names go.
    if (options.lookup !== undefined) {
      for (const agent of [httpAgent, httpsAgent]) {
        const create = agent.createConnection.bind(agent) as CreateConnection;
        agent.createConnection = ((o: ConnectionOptions, cb?: ConnectionCallback) =>
          create({ ...o, lookup: base }, cb)) as typeof agent.createConnection;
      }
    }
  } else {
    const lookup = guardedLookup(base);
    for (const agent of [httpAgent, httpsAgent]) {
      agent.createConnection = guardedConnection(
        agent.createConnection.bind(agent) as CreateConnection,
        lookup,
      ) as typeof agent.createConnection;
    }
  }
  return {
    http: httpAgent,
    https: httpsAgent,
    destroy() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

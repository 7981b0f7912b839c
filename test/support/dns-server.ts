/**
 * A real DNS server on 127.0.0.1 (UDP, dns-packet) that plays a merchant's name servers for
 * domain verification: the test sets TXT and A records, and may make it answer SERVFAIL or not
 * answer at all. The gateway asks it through `GATEWAY_DNS_SERVERS=127.0.0.1:<port>`.
 */
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import dnsPacket, { type Answer } from 'dns-packet';

export type DnsMode = 'answer' | 'servfail' | 'refused' | 'silent';

const SERVFAIL = 2;
const NXDOMAIN = 3;
const REFUSED = 5;

export class TestDnsServer {
  /** Names asked, in order (lower case), with their type. */
  readonly queries: Array<{ name: string; type: string }> = [];
  readonly #socket: Socket;
  readonly #txt = new Map<string, string[][]>();
  readonly #a = new Map<string, string[]>();
  #mode: DnsMode = 'answer';
  port = 0;

  private constructor() {
    this.#socket = createSocket('udp4');
    this.#socket.on('message', (message, remote) => this.#answer(message, remote));
  }

  static async start(): Promise<TestDnsServer> {
    const server = new TestDnsServer();
    server.#socket.bind(0, '127.0.0.1');
    await once(server.#socket, 'listening');
    server.port = (server.#socket.address() as AddressInfo).port;
    return server;
  }

  /** `GATEWAY_DNS_SERVERS` pointing here. */
  get servers(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** The TXT records of `name` (each a list of chunks); an empty list removes them. */
  setTxt(name: string, records: string[][]): void {
    if (records.length === 0) this.#txt.delete(name.toLowerCase());
    else this.#txt.set(name.toLowerCase(), records);
  }

  setA(name: string, addresses: string[]): void {
    this.#a.set(name.toLowerCase(), addresses);
  }

  /** `answer` (default), `servfail` or `refused` to every query, or `silent` (never answers). */
  setMode(mode: DnsMode): void {
    this.#mode = mode;
  }

  #answer(message: Buffer, remote: RemoteInfo): void {
    let query: ReturnType<typeof dnsPacket.decode>;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (question === undefined) return;
    const name = question.name.toLowerCase();
    this.queries.push({ name, type: question.type });
    if (this.#mode === 'silent') return;
    const answers: Answer[] = [];
    let rcode = 0;
    if (this.#mode === 'servfail') rcode = SERVFAIL;
    else if (this.#mode === 'refused') rcode = REFUSED;
    else if (question.type === 'TXT') {
      for (const chunks of this.#txt.get(name) ?? []) {
        answers.push({ type: 'TXT', name: question.name, ttl: 60, data: chunks });
      }
    } else if (question.type === 'A') {
      for (const address of this.#a.get(name) ?? []) {
        answers.push({ type: 'A', name: question.name, ttl: 60, data: address });
      }
    }
    if (rcode === 0 && answers.length === 0 && !this.#txt.has(name) && !this.#a.has(name)) rcode = NXDOMAIN;
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id ?? 0,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | rcode,
      questions: query.questions ?? [],
      answers,
    });
    this.#socket.send(response, remote.port, remote.address);
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.#socket.close(() => resolve()));
  }
}

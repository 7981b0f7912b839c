/**
 * A merchant's web site over HTTPS on 127.0.0.1, for the domain verification file check: its
 * certificate is for `verify-check.am` and `*.verify-check.am`, signed by the test CA
 * (test/fixtures/tls/domain-check/, trusted by the check through its `ca` option). The test says
 * how it answers: a status with a body, a redirect, or never.
 */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

const dir = new URL('../fixtures/tls/domain-check/', import.meta.url);
export const SITE_CA = readFileSync(new URL('ca.pem', dir), 'utf8');
const CERT = readFileSync(new URL('server.pem', dir), 'utf8');
const KEY = readFileSync(new URL('server-key.pem', dir), 'utf8');

export type SiteReply = { status: number; body?: string; headers?: Record<string, string> } | { hang: true };

export class VerificationSite {
  readonly requests: Array<{ host: string; path: string }> = [];
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #reply: SiteReply = { status: 404, body: 'not found' };
  port = 0;

  private constructor() {
    this.#server = createServer({ cert: CERT, key: KEY }, (req, res) => {
      this.requests.push({ host: req.headers.host ?? '', path: req.url ?? '/' });
      const reply = this.#reply;
      if ('hang' in reply) return;
      res.writeHead(reply.status, { 'Content-Type': 'text/plain', ...reply.headers });
      res.end(reply.body ?? '');
    });
    this.#server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
  }

  static async start(): Promise<VerificationSite> {
    const site = new VerificationSite();
    site.#server.listen(0, '127.0.0.1');
    await once(site.#server, 'listening');
    site.port = (site.#server.address() as AddressInfo).port;
    return site;
  }

  replyWith(reply: SiteReply): void {
    this.#reply = reply;
  }

  async close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

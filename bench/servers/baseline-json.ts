/**
 * Baseline 1: bare Koa answering a small JSON object on `GET /` (no router, no middleware, no
 * logging). The ceiling the gateway's GET-payment is compared with.
 */
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { announceReady, closeServer, stopOnSignal, tuneServer } from './common.js';

const app = new Koa();
app.use((ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/') {
    ctx.body = { status: 'ok', service: 'baseline-json', time: Date.now() };
  }
});

const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
tuneServer(server);
server.once('listening', () => {
  const { port } = server.address() as AddressInfo;
  announceReady({ url: `http://127.0.0.1:${port}` });
});
stopOnSignal(() => closeServer(server));

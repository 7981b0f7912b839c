/**
 * Baseline 1: bare Koa answering a small JSON object on `GET /` (no router, no middleware, no
 * logging). The ceiling the gateway's GET-payment is compared with.
 */
import Koa from 'koa';
import { serveBaseline } from './common.js';

const app = new Koa();
app.use((ctx) => {
  if (ctx.method === 'GET' && ctx.path === '/') {
    ctx.body = { status: 'ok', service: 'baseline-json', time: Date.now() };
  }
});

serveBaseline(app, () => {});

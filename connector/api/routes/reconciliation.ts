/**
 * Reconciliation runs (docs/connector.md, "Plugin-facing HTTP API"): `POST /v1/reconciliation` runs one,
 * `GET /v1/reconciliation` lists them, `GET /v1/reconciliation/:id` reads one. The Shopify app's
 * page starts and reads them through its own API with the same shapes (runReconciliation).
 */
import { z } from 'zod';
import { reconcile, reconcileInBackground } from '../../reconciliation/reconcile.service.js';
import { getReport, listReports } from '../../reconciliation/reports.js';
import type { ConnectorDeps } from '../../runtime/deps.js';
import type { StoreConnection } from '../../storage/connection.repository.js';
import type { PluginCallers } from '../plugin-callers.js';
import { type ConnectorRouter, type Context, instant, parse, readJson } from '../request.js';

export const runsQuerySchema = z.object({
  trigger: z.enum(['scheduled', 'plugin', 'cli']).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});

export const reconciliationSchema = z
  .object({ from: instant, to: instant, repair: z.boolean().optional(), wait: z.boolean().optional() })
  .refine((r) => Date.parse(r.from) < Date.parse(r.to), { error: 'must be after from', path: ['to'] });

export function reconciliationRoutes(router: ConnectorRouter, deps: ConnectorDeps, callers: PluginCallers): void {
  const { connection } = callers;

  router.post('/v1/reconciliation', async (ctx) => {
    const conn = await connection(ctx);
    const body = parse(reconciliationSchema, await readJson(ctx));
    await runReconciliation(deps, ctx, conn, body);
  });

  router.get('/v1/reconciliation', async (ctx) => {
    const conn = await connection(ctx);
    const query = parse(runsQuerySchema, { trigger: ctx.query.trigger, limit: ctx.query.limit });
    ctx.body = { data: await listReports(deps, conn, query) };
  });

  router.get('/v1/reconciliation/:id', async (ctx) => {
    ctx.body = await getReport(deps, await connection(ctx), ctx.params.id ?? '');
  });
}

/** `POST .../reconciliation`: 201 with the finished report, or 202 with the running run (`wait: false`). */
export async function runReconciliation(
  deps: ConnectorDeps,
  ctx: Context,
  conn: StoreConnection,
  body: z.output<typeof reconciliationSchema>,
): Promise<void> {
  const request = {
    from: new Date(Date.parse(body.from)).toISOString(),
    to: new Date(Date.parse(body.to)).toISOString(),
    repair: body.repair ?? false,
    trigger: 'plugin' as const,
  };
  if (body.wait === false) {
    ctx.status = 202;
    ctx.body = await reconcileInBackground(deps, conn, request);
    return;
  }
  ctx.status = 201;
  ctx.body = await reconcile(deps, conn, request);
}

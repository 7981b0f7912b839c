/**
 * Every state-changing route of the dashboard, found from the router itself (so a route added
 * later is covered without being listed here), over HTTP:
 *
 * - without the form token, or with another browser's, it answers 403 and changes nothing;
 * - for a viewer with a good form token, it answers 403, unless it is one of the routes a person
 *   uses for their own sign-in and account (listed below, each tested in its own file).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardRouter } from '../../gateway/dashboard/dashboard.router.js';
import { formToken } from '../checkout/support.js';
import { DIALECTS } from '../support/databases.js';
import {
  type DashboardClient,
  type DashboardGateway,
  signedInMember,
  signedInOwner,
  startDashboardGateway,
} from './support.js';

/**
 * Routes a viewer may post: their own sign-in, sign-out and account, accepting an invitation, and
 * the demo merchant's printed link (it makes a new owner, whoever posts it).
 */
const SELF_SERVICE = new Set([
  '/dashboard/sign-up',
  '/dashboard/sign-in',
  '/dashboard/sign-out',
  '/dashboard/verify-email',
  '/dashboard/reset',
  '/dashboard/reset/new',
  '/dashboard/account/email',
  '/dashboard/account/password',
  '/dashboard/account/two-factor/enable',
  '/dashboard/account/two-factor/disable',
  '/dashboard/account/two-factor/recovery-codes',
  '/dashboard/sign-in/two-factor',
  '/dashboard/invitation',
  '/dashboard/demo',
]);

/** A path of the route with its parameters filled in by values of no account. */
function concrete(path: string): string {
  return path.replace(/:([A-Za-z_]+)/g, (_, name: string) =>
    name === 'host' ? 'shop.example.am' : name === 'counter' ? 'transactions' : '0193c1a0-0000-7000-8000-000000000000',
  );
}

describe.each(DIALECTS)('dashboard state-changing routes (%s)', (dialect) => {
  let g: DashboardGateway;
  let posts: string[];
  let owner: DashboardClient;
  let viewer: DashboardClient;

  beforeAll(async () => {
    g = await startDashboardGateway(dialect);
    const router = dashboardRouter(g.t.gateway.deps, {
      mailer: { kind: 'log', send: async () => {}, close: () => {} },
    });
    posts = [
      ...new Set(router.stack.filter((layer) => layer.methods.includes('POST')).map((layer) => String(layer.path))),
    ];
    const signedIn = await signedInOwner(g);
    owner = signedIn.client;
    viewer = await signedInMember(g, signedIn.merchantId, 'viewer');
  });

  afterAll(async () => {
    await g?.close();
  });

  it('finds the routes', () => {
    expect(posts).toEqual(expect.arrayContaining([...SELF_SERVICE]));
  });

  it('refuses every POST without the form token, or with another browser token, before anything else', async () => {
    const home = await owner.get('/dashboard');
    const ownToken = formToken(home.text);
    const otherToken = formToken((await viewer.get('/dashboard')).text);
    expect(otherToken).not.toBe(ownToken);
    for (const path of posts) {
      for (const fields of [{}, { form_token: '' }, { form_token: otherToken }] as Record<string, string>[]) {
        const page = await owner.post(concrete(path), fields);
        expect(page.status, `${path} ${JSON.stringify(fields)}`).toBe(403);
        expect(page.text).toContain('This form has expired');
      }
    }
  });

  it('refuses every POST but the self-service ones to a viewer, with a 403 page', async () => {
    const token = formToken((await viewer.get('/dashboard')).text);
    for (const path of posts.filter((p) => !SELF_SERVICE.has(p))) {
      const page = await viewer.post(concrete(path), { form_token: token });
      expect(page.status, path).toBe(403);
      expect(page.text, path).toContain('You cannot do this');
    }
  });
});

/**
 * The hosted domain a new account gets, on both databases: `<slug>-<6 hex>.<gateway host>`, and
 * another six digits when the first ones are another account's already (same name, same digits),
 * instead of the account's creation failing on the unique index of verified hosts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainRow, newWebhookSecret } from '../../../gateway/merchants/domains.service.js';
import { createMerchant } from '../../../gateway/merchants/merchant.service.js';
import type { Deps } from '../../../gateway/runtime/deps.js';
import { sha256Hex } from '../../../gateway/runtime/hashing.js';
import { insertDomain } from '../../../storage/domain.repository.js';
import { DIALECTS } from '../../support/databases.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

const NOW = '2026-01-01T00:00:00.000Z';

describe.each(DIALECTS)('the hosted domain of a new account (%s)', (dialect) => {
  let t: TestGateway;

  beforeAll(async () => {
    t = await startTestGateway(dialect);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Deps whose next uuid is `first`, then the gateway's own. */
  const withFirstId = (first: string): Deps => {
    const deps = t.gateway.deps;
    let given = false;
    return {
      ...deps,
      ids: {
        ...deps.ids,
        uuid: (ms: number) => {
          if (given) return deps.ids.uuid(ms);
          given = true;
          return first;
        },
      },
    };
  };

  /** Another account's domain `host`, verified or not. */
  const holdHost = async (holderName: string, host: string, verified: boolean): Promise<string> => {
    const deps = t.gateway.deps;
    const holder = await createMerchant(deps, { name: holderName });
    const id = deps.ids.uuid(deps.clock.nowMs());
    const secret = newWebhookSecret(deps);
    await insertDomain(deps.db, domainRow(deps, id, holder.merchant_id, host, false, verified, null, secret, NOW));
    return holder.merchant_id;
  };

  it('is the slug of the name and six hex digits of the account id', async () => {
    const made = await createMerchant(t.gateway.deps, { name: 'Tea House' });
    expect(made.hosted_domain).toBe(`tea-house-${sha256Hex(made.merchant_id).slice(0, 6)}.gateway.test`);
    expect(made.domains[0]).toMatchObject({ host: made.hosted_domain, verified: true, hosted: true });
  });

  it('takes other digits when another account holds the first ones verified', async () => {
    const deps = t.gateway.deps;
    const nextId = deps.ids.uuid(deps.clock.nowMs());
    const wanted = `test-shop-${sha256Hex(nextId).slice(0, 6)}.gateway.test`;
    const holderId = await holdHost('Holder', wanted, true);

    const made = await createMerchant(withFirstId(nextId), { name: 'Test Shop' });
    expect(made.merchant_id).toBe(nextId);
    expect(made.hosted_domain).toBe(`test-shop-${sha256Hex(`${nextId}:1`).slice(0, 6)}.gateway.test`);
    expect(made.hosted_domain).not.toBe(wanted);
    const hosts = await deps.db
      .selectFrom('domains')
      .select(['merchant_id', 'host', 'verified'])
      .where('host', 'in', [wanted, made.hosted_domain])
      .execute();
    const byMerchant = (a: { merchant_id: string }, b: { merchant_id: string }) =>
      a.merchant_id < b.merchant_id ? -1 : 1;
    expect(hosts.sort(byMerchant)).toEqual(
      [
        { merchant_id: holderId, host: wanted, verified: 1 },
        { merchant_id: nextId, host: made.hosted_domain, verified: 1 },
      ].sort(byMerchant),
    );
  });

  it('keeps the first digits when the host is another account’s but not verified there', async () => {
    const deps = t.gateway.deps;
    const nextId = deps.ids.uuid(deps.clock.nowMs());
    const wanted = `test-shop-${sha256Hex(nextId).slice(0, 6)}.gateway.test`;
    await holdHost('Claimant', wanted, false);
    const made = await createMerchant(withFirstId(nextId), { name: 'Test Shop' });
    expect(made.hosted_domain).toBe(wanted);
  });
});

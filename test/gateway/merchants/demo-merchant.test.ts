/**
 * The demo merchant of a first start, on both databases: two instances on one empty database,
 * asked together many times, make one demo merchant (one key to print), and none once a merchant
 * exists. The processes' side, `gateway serve` twice at once, is in test/cli/serve.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDemoMerchantIfEmpty, DEMO_MERCHANT_NAME } from '../../../gateway/merchants/merchant.service.js';
import { countMerchants } from '../../../storage/merchant.repository.js';
import { DIALECTS } from '../../support/databases.js';
import { startTestGateway, type TestGateway } from '../../support/gateway.js';

describe.each(DIALECTS)('the demo merchant of a first start (%s)', (dialect) => {
  let first: TestGateway;
  let second: TestGateway;

  beforeAll(async () => {
    first = await startTestGateway(dialect);
    second = await startTestGateway(dialect, { databaseUrl: first.gateway.deps.config.databaseUrl });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('is made once by instances asking together on an empty database, and never again', async () => {
    expect(await countMerchants(first.gateway.deps.db)).toBe(0);
    const instances = [first, second];
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) => createDemoMerchantIfEmpty((instances[i % 2] as TestGateway).gateway.deps)),
    );
    const demos = made.filter((m) => m !== null);
    expect(demos).toHaveLength(1);
    expect(demos[0]?.keys).toEqual([expect.objectContaining({ environment: 'test', access: 'full' })]);
    const merchants = await first.gateway.deps.db.selectFrom('merchants').select('name').execute();
    expect(merchants).toEqual([{ name: DEMO_MERCHANT_NAME }]);

    expect(await createDemoMerchantIfEmpty(second.gateway.deps)).toBeNull();
    expect(await countMerchants(second.gateway.deps.db)).toBe(1);
  });
});

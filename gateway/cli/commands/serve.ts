/**
 * `gateway serve` (and `npm start`): migrate, serve, and on an empty database create a demo
 * merchant whose test key is printed once with a ready-to-paste curl and a one-time link to its
 * dashboard (gateway/dashboard/demo/). Stops cleanly on SIGINT or SIGTERM: no new connections,
 * requests in flight finish, then the database closes.
 */
import { issueDemoClaim } from '../../dashboard/demo/demo.service.js';
import { createDemoMerchantIfEmpty } from '../../merchants/merchant.service.js';
import { sandboxPaymentCurl } from '../../merchants/sandbox-curl.js';
import { createLogger } from '../../runtime/logger.js';
import { startGateway } from '../../runtime/start.js';
import type { StandaloneCommand } from '../command.js';

export const serve: StandaloneCommand = async (_values, { config, io }) => {
  const gateway = await startGateway({ config, logger: createLogger(config.logLevel, io.logs) });
  const { deps } = gateway;
  const lines = [`Payment gateway listening on ${config.publicUrl} (database: ${deps.dialect})`];
  // Instances started together on one empty database make one demo merchant: one prints its key.
  const demo = await createDemoMerchantIfEmpty(deps);
  if (demo !== null) {
    const key = demo.keys[0]?.key ?? '';
    const dashboard = await issueDemoClaim(deps, demo.merchant_id, demo.keys[0]?.key);
    lines.push(
      '',
      `Empty database: created the demo merchant ${demo.merchant_id}.`,
      `Its test key (printed only this once): ${key}`,
      '',
      'Its dashboard: open this link to choose your email and password (works once, for 24 hours):',
      dashboard,
      '',
      'Create a sandbox payment:',
      sandboxPaymentCurl(config.publicUrl, key),
    );
  }
  io.stdout.write(`${lines.join('\n')}\n`);

  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      deps.logger.info({ signal }, 'stopping');
      resolve();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await gateway.close();
  return 0;
};

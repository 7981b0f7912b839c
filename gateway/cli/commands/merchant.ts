/**
 * `gateway merchant create|rate-limit`: accounts. `--json` shapes (README "CLI"):
 *
 * - `merchant create`: `{merchant_id, hosted_domain, keys: [{key, environment, access}],
 *   domains: [{host, verified, hosted, webhook_secret}]}` (the keys and secrets shown once);
 * - `merchant rate-limit`: `{merchant_id, rate_limit_per_minute}`.
 */

import { createMerchant, setRateLimit } from '../../merchants/merchant.service.js';
import type { CommandTable } from '../command.js';
import { required, UsageError } from '../options.js';

export const merchantCommands: CommandTable = {
  'merchant create': (values) => {
    const name = required(values, 'name');
    return async (deps) => {
      const created = await createMerchant(deps, {
        name,
        email: values.email,
        domains: values.domain ?? [],
        verifyDomains: values['verify-domains'] === true,
        verifyBusiness: values['verify-business'] === true,
        unlimited: values.unlimited === true,
      });
      const lines = [
        `Merchant ${created.merchant_id} created.`,
        `Hosted domain: ${created.hosted_domain}`,
        ...created.keys.map((k) => `${k.environment} key (${k.access} access, shown once): ${k.key}`),
        ...created.domains.map(
          (d) =>
            `Domain ${d.host}${d.hosted ? ' (hosted)' : ''}: ${d.verified ? 'verified' : 'not verified'}, webhook secret ${d.webhook_secret}`,
        ),
      ];
      return { json: created, text: lines.join('\n') };
    };
  },

  'merchant rate-limit': (values) => {
    const merchant = required(values, 'merchant');
    let perMinute: number | null;
    if (values.default === true) perMinute = null;
    else {
      const raw = values['per-minute'];
      if (raw === undefined || !/^\d+$/.test(raw) || Number(raw) < 1) {
        throw new UsageError('--per-minute must be a whole number of at least 1 (or pass --default)');
      }
      perMinute = Number(raw);
    }
    return async (deps) => {
      const result = await setRateLimit(deps, merchant, perMinute);
      return {
        json: result,
        text: `Merchant ${merchant} may send ${result.rate_limit_per_minute} requests per minute.`,
      };
    };
  },
};

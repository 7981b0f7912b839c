/**
 * `gateway merchant create|list|rate-limit`: accounts. `--json` shapes (README "CLI"):
 *
 * - `merchant create`: `{merchant_id, hosted_domain, keys: [{key, environment, access}],
 *   domains: [{host, verified, hosted, webhook_secret}]}` (the keys and secrets shown once);
 * - `merchant list`: `{merchants: [{merchant_id, name, email, hosted_domain, business_verified,
 *   created_at}]}`, oldest first (without `--json`, a table);
 * - `merchant rate-limit`: `{merchant_id, rate_limit_per_minute}`.
 */
import { createMerchant, setRateLimit } from '../../merchants/merchant.service.js';
import { listMerchants } from '../../merchants/merchant-list.service.js';
import type { CommandTable } from '../command.js';
import { required, UsageError } from '../options.js';
import { formatTable } from '../table.js';

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

  'merchant list': () => async (deps) => {
    const listed = await listMerchants(deps);
    if (listed.merchants.length === 0) return { json: listed, text: 'No merchants yet.' };
    const rows = listed.merchants.map((m) => [
      m.merchant_id,
      m.hosted_domain ?? '-',
      m.business_verified ? 'verified' : 'not verified',
      m.created_at,
      m.email === null ? m.name : `${m.name} <${m.email}>`,
    ]);
    return { json: listed, text: formatTable(['MERCHANT', 'HOSTED DOMAIN', 'BUSINESS', 'CREATED', 'NAME'], rows) };
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

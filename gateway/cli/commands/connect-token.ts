/**
 * `gateway connect-token create|revoke|list`: the tokens a shop's plugin connects with. `--json`
 * shapes (README "CLI"): create `{connect_token, id, merchant_id, domain, platform, environment,
 * expires_at}` (the token shown once, never stored); revoke `{id, revoked_at}`; list
 * `{connect_tokens: [{id, domain, platform, environment, created_at, expires_at, revoked_at}]}`.
 * Creating and revoking are written to the account's audit log as the operator's.
 */
import { findConnectTokenWithAccount } from '../../../storage/connect-token.repository.js';
import { createConnectToken, listConnectTokens, revokeConnectToken } from '../../connect/connect-token.service.js';
import { CONNECT_PLATFORMS, MAX_CONNECT_TOKEN_DAYS } from '../../domain/connect-tokens.js';
import type { CommandTable } from '../command.js';
import { operatorAudit } from '../operator-audit.js';
import { oneOf, required, UsageError } from '../options.js';

export const connectTokenCommands: CommandTable = {
  'connect-token create': (values) => {
    const merchantId = required(values, 'merchant');
    const domains = values.domain ?? [];
    if (domains.length > 1) throw new UsageError('--domain may be given once: a token is bound to one domain');
    const domain = domains[0];
    if (domain === undefined || domain === '') throw new UsageError('--domain is required');
    const platform = oneOf(required(values, 'platform'), CONNECT_PLATFORMS, 'platform');
    const environment = oneOf(values.environment ?? 'test', ['test', 'live'] as const, 'environment');
    const rawDays = values['expires-in-days'];
    let expiresInDays: number | undefined;
    if (rawDays !== undefined) {
      if (!/^\d+$/.test(rawDays) || Number(rawDays) < 1 || Number(rawDays) > MAX_CONNECT_TOKEN_DAYS) {
        throw new UsageError(`--expires-in-days must be a whole number from 1 to ${MAX_CONNECT_TOKEN_DAYS}`);
      }
      expiresInDays = Number(rawDays);
    }
    return async (deps) => {
      const created = await createConnectToken(deps, { merchantId, domain, platform, environment, expiresInDays });
      await operatorAudit(deps, merchantId, 'connect_token.created', `${created.id} (${platform}, ${created.domain})`);
      return {
        json: created,
        text: `${environment} connect token ${created.id} for ${created.domain} (${platform}), valid until ${created.expires_at}, shown once:\n${created.connect_token}`,
      };
    };
  },

  'connect-token revoke': (values) => {
    const id = required(values, 'id');
    return async (deps) => {
      const before = await findConnectTokenWithAccount(deps.db, id);
      const revoked = await revokeConnectToken(deps, id);
      if (before !== undefined && before.revoked_at === null) {
        const subject = `${id} (${before.platform}, ${before.domain_host ?? '-'})`;
        await operatorAudit(deps, before.merchant_id, 'connect_token.revoked', subject);
      }
      return { json: revoked, text: `Connect token ${id} revoked at ${revoked.revoked_at}.` };
    };
  },

  'connect-token list': (values) => {
    const merchantId = required(values, 'merchant');
    return async (deps) => {
      const listed = await listConnectTokens(deps, merchantId);
      const lines = listed.connect_tokens.map(
        (t) =>
          `${t.id}  ${t.environment}  ${t.platform}  ${t.domain ?? '(domain gone)'}  expires ${t.expires_at}${t.revoked_at === null ? '' : `  revoked ${t.revoked_at}`}`,
      );
      return {
        json: listed,
        text: lines.length === 0 ? `Merchant ${merchantId} has no connect tokens.` : lines.join('\n'),
      };
    };
  },
};

/**
 * `gateway key create|revoke`: a merchant's API keys. A key is printed once, when it is created.
 * `--json` shapes (README "CLI"):
 *
 * - `key create`: `{key, key_id, environment, access, merchant_id}`;
 * - `key revoke`: `{merchant_id, key_id, revoked: true}`.
 *
 * Creating and revoking are written to the account's audit log as the operator's.
 */
import { keyHint } from '../../domain/api-keys.js';
import { createApiKey, revokeApiKey } from '../../merchants/merchant.service.js';
import type { CommandTable } from '../command.js';
import { operatorAudit } from '../operator-audit.js';
import { oneOf, required } from '../options.js';

/** A key as the audit log names it: its prefix and last four, never the key. */
function keyLabel(hint: { prefix: string; last4: string }): string {
  return `${hint.prefix}…${hint.last4}`;
}

export const keyCommands: CommandTable = {
  'key create': (values) => {
    const merchantId = required(values, 'merchant');
    const environment = oneOf(required(values, 'environment'), ['live', 'test'] as const, 'environment');
    const access = oneOf(required(values, 'access'), ['full', 'payments'] as const, 'access');
    return async (deps) => {
      const key = await createApiKey(deps, { merchantId, environment, access });
      await operatorAudit(deps, merchantId, 'api_key.created', keyLabel(keyHint(key.key)));
      return {
        json: key,
        text: `${environment} key (${access} access) for ${merchantId}, shown once:\n${key.key}`,
      };
    };
  },

  'key revoke': (values) => {
    const merchantId = required(values, 'merchant');
    const keyId = required(values, 'key-id');
    return async (deps) => {
      const hint = await deps.db
        .selectFrom('api_keys')
        .select(['key_prefix as prefix', 'key_last4 as last4'])
        .where('merchant_id', '=', merchantId)
        .where('id', '=', keyId)
        .executeTakeFirst();
      const result = await revokeApiKey(deps, { merchantId, keyId });
      await operatorAudit(deps, merchantId, 'api_key.revoked', hint === undefined ? keyId : keyLabel(hint));
      return { json: result, text: `Key ${keyId} of ${merchantId} revoked.` };
    };
  },
};

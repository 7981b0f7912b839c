/**
 * `gateway key create|list|revoke`: a merchant's API keys. A key is printed once, when it is
 * created; lists show only what is kept in clear (`hint`: its first twelve and last four
 * characters). `--json` shapes (README "CLI"):
 *
 * - `key create`: `{key, key_id, environment, access, merchant_id}`;
 * - `key list`: `{merchant_id, keys: [{key_id, environment, access, hint, created_at, last_used_at,
 *   revoked_at}]}`, newest first, revoked keys included;
 * - `key revoke`: `{merchant_id, key_id, revoked: true}`.
 *
 * Creating and revoking are written to the account's audit log as the operator's.
 */
import { keyHint, keyLabel } from '../../domain/api-keys.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../../merchants/api-keys.service.js';
import type { CommandTable } from '../command.js';
import { operatorAudit } from '../operator-audit.js';
import { oneOf, required } from '../options.js';
import { formatTable } from '../table.js';

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

  'key list': (values) => {
    const merchantId = required(values, 'merchant');
    return async (deps) => {
      const keys = (await listApiKeys(deps, merchantId)).map((k) => ({
        key_id: k.key_id,
        environment: k.environment,
        access: k.access,
        hint: keyLabel(k),
        created_at: k.created_at,
        last_used_at: k.last_used_at,
        revoked_at: k.revoked_at,
      }));
      const json = { merchant_id: merchantId, keys };
      if (keys.length === 0) return { json, text: `Merchant ${merchantId} has no keys.` };
      const rows = keys.map((k) => [
        k.key_id,
        k.environment,
        k.access,
        k.hint,
        k.created_at,
        k.last_used_at ?? 'never',
        k.revoked_at === null ? 'active' : `revoked ${k.revoked_at}`,
      ]);
      return {
        json,
        text: formatTable(['KEY ID', 'ENVIRONMENT', 'ACCESS', 'KEY', 'CREATED', 'LAST USED', 'STATE'], rows),
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

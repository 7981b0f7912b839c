/**
 * `gateway domain add|rotate-secret|verification|verify|limits`: a merchant's domains. `--json`
 * shapes (README "CLI"): `domain add` `{merchant_id, host, verified, hosted, webhook_secret,
 * webhook_url}`; `domain rotate-secret` `{webhook_secret, webhook_secret_next}`; verification and
 * limits in their own files. Adding, verifying and rotating are written to the account's audit log
 * as the operator's.
 */
import { VERIFICATION_METHODS } from '../../domain/domain-verification.js';
import { addDomain, rotateWebhookSecret } from '../../merchants/domains.service.js';
import type { CommandTable } from '../command.js';
import { operatorAudit } from '../operator-audit.js';
import { oneOf, required } from '../options.js';
import { domainLimits, limitsChange } from './domain-limits.js';
import { domainVerification, domainVerify } from './domain-verification.js';

export const domainCommands: CommandTable = {
  'domain add': (values) => {
    const merchantId = required(values, 'merchant');
    const host = required(values, 'host');
    return async (deps) => {
      const domain = await addDomain(deps, {
        merchantId,
        host,
        verified: values.verified === true,
        webhookUrl: values['webhook-url'],
      });
      await operatorAudit(deps, merchantId, 'domain.added', domain.host);
      if (domain.verified) await operatorAudit(deps, merchantId, 'domain.verified', `${domain.host} (operator)`);
      return {
        json: domain,
        text: `Domain ${domain.host}: ${domain.verified ? 'verified' : 'not verified'}; webhook secret ${domain.webhook_secret}${domain.webhook_url ? `; webhooks to ${domain.webhook_url}` : ''}`,
      };
    };
  },

  'domain rotate-secret': (values) => {
    const merchantId = required(values, 'merchant');
    const host = required(values, 'host');
    return async (deps) => {
      const rotated = await rotateWebhookSecret(deps, { merchantId, host });
      await operatorAudit(deps, merchantId, 'webhook.secret_rotated', host);
      return {
        json: { webhook_secret: rotated.webhook_secret, webhook_secret_next: rotated.webhook_secret_next },
        text: `New webhook secret ${rotated.webhook_secret_next}: signs X-Service-Signature-Next now and replaces ${rotated.webhook_secret} at ${rotated.next_active_at}.`,
      };
    };
  },

  'domain verification': (values) => domainVerification(required(values, 'merchant'), required(values, 'host')),

  'domain verify': (values) =>
    domainVerify(
      required(values, 'merchant'),
      required(values, 'host'),
      oneOf(required(values, 'method'), VERIFICATION_METHODS, 'method'),
    ),

  'domain limits': (values) =>
    domainLimits(required(values, 'merchant'), required(values, 'host'), limitsChange(values)),
};

/**
 * `gateway domain verification --merchant ID --host HOST`: the token and where to publish it (the
 * TXT record's name and value, the file's URL and content), and the last check's outcome.
 * `gateway domain verify --merchant ID --host HOST --method dns|https`: checks now. `--json` prints
 * the service's view (gateway/merchants/domain-verification.service.ts); a check that fails prints
 * it too, with `ok: false` and `failure: {code, message}`, and exits 1. A domain this check
 * verifies is written to the account's audit log as the operator's.
 */
import type { VerificationMethod } from '../../domain/domain-verification.js';
import {
  type DomainVerificationView,
  getDomainVerification,
  verifyDomain,
} from '../../merchants/domain-verification.service.js';
import type { Run } from '../command.js';
import { operatorAudit } from '../operator-audit.js';

function status(view: DomainVerificationView): string {
  if (!view.verified) return 'not verified';
  return view.verified_method === null ? 'verified' : `verified (${view.verified_method})`;
}

function describe(view: DomainVerificationView): string {
  const lines = [
    `Domain ${view.host}: ${status(view)}.`,
    `To verify it, publish either:`,
    `  a DNS TXT record  ${view.txt_name}  with the value  ${view.txt_value}`,
    `  or a file at      ${view.file_url}  holding  ${view.file_content}`,
  ];
  const last = view.last_check;
  if (last !== null) {
    lines.push(
      last.ok
        ? `Last check (${last.method}) at ${last.checked_at}: passed.`
        : `Last check (${last.method}) at ${last.checked_at} failed: ${last.failure_code}: ${last.failure_message}`,
    );
  }
  return lines.join('\n');
}

export function domainVerification(merchantId: string, host: string): Run {
  return async (deps) => {
    const view = await getDomainVerification(deps, { merchantId, host });
    return { json: view, text: describe(view) };
  };
}

export function domainVerify(merchantId: string, host: string, method: VerificationMethod): Run {
  return async (deps) => {
    // Read first to audit only a domain this check verifies; what cannot be checked, the check refuses.
    const wasVerified = await getDomainVerification(deps, { merchantId, host }).then(
      (view) => view.verified,
      () => false,
    );
    const outcome = await verifyDomain(deps, { merchantId, host, method });
    if (outcome.failure === null) {
      if (!wasVerified) await operatorAudit(deps, merchantId, 'domain.verified', `${outcome.host} (${method})`);
      return { json: outcome, text: `Domain ${outcome.host} verified by ${method}.` };
    }
    return {
      json: outcome,
      text: `Domain ${outcome.host} was not verified by ${method}: ${outcome.failure.code}: ${outcome.failure.message}`,
      exitCode: 1,
    };
  };
}

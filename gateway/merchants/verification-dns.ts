/**
 * The DNS side of domain verification: a resolver that asks the configured name servers
 * (`GATEWAY_DNS_SERVERS`, else the system's), the TXT check of `_gateway-verification.<host>`, and
 * a lookup over the same resolver for the HTTPS check, so that both methods see one DNS.
 */

import type { LookupAddress } from 'node:dns';
import { Resolver } from 'node:dns/promises';
import type { LookupFunction } from 'node:net';
import { type VerificationFailure, verificationRecordName } from '../domain/domain-verification.js';
import { safeEqual } from '../runtime/hashing.js';

/** How long one query waits for the first answer (c-ares doubles it for the second try). */
export const DNS_TIMEOUT_MS = 2_000;
const DNS_TRIES = 2;
/** Records shown back to the merchant when none matches, and how much of each. */
const SHOWN_RECORDS = 3;
const SHOWN_RECORD_CHARS = 80;

export function createVerificationResolver(servers: readonly string[], timeoutMs = DNS_TIMEOUT_MS): Resolver {
  const resolver = new Resolver({ timeout: timeoutMs, tries: DNS_TRIES });
  if (servers.length > 0) resolver.setServers([...servers]);
  return resolver;
}

function dnsFailure(name: string, error: unknown): VerificationFailure {
  const code = (error as { code?: string }).code;
  switch (code) {
    case 'ENODATA':
    case 'ENOTFOUND':
      return {
        code: 'dns_no_record',
        message: `No TXT record at ${name}: add one holding the verification value, then check again (DNS changes may take a while to show).`,
      };
    case 'ETIMEOUT':
      return { code: 'dns_timeout', message: `The name servers did not answer for ${name} in time; try again later.` };
    case 'ESERVFAIL':
      return {
        code: 'dns_servfail',
        message: `The name servers failed to answer for ${name} (SERVFAIL); check the domain's DNS setup (DNSSEC, delegation).`,
      };
    default:
      return { code: 'dns_error', message: `Looking up ${name} failed (${code ?? String(error)}).` };
  }
}

function shown(value: string): string {
  return value.length > SHOWN_RECORD_CHARS ? `${value.slice(0, SHOWN_RECORD_CHARS)}…` : value;
}

/**
 * Whether one TXT record at `_gateway-verification.<host>` holds `expected` (its chunks joined,
 * trimmed, compared in constant time; every record is compared). Answers why not, or null.
 */
export async function checkTxtRecord(
  resolver: Resolver,
  host: string,
  expected: string,
): Promise<VerificationFailure | null> {
  const name = verificationRecordName(host);
  let records: string[][];
  try {
    records = await resolver.resolveTxt(name);
  } catch (error) {
    return dnsFailure(name, error);
  }
  const values = records.map((chunks) => chunks.join('').trim());
  let matched = false;
  for (const value of values) matched = safeEqual(value, expected) || matched;
  if (matched) return null;
  if (values.length === 0) return dnsFailure(name, { code: 'ENODATA' });
  const found = values
    .slice(0, SHOWN_RECORDS)
    .map((value) => `"${shown(value)}"`)
    .join(', ');
  return {
    code: 'dns_wrong_value',
    message: `The TXT record at ${name} does not hold the verification value (found ${found}); set it to the value shown.`,
  };
}

/** A `LookupFunction` answering from `resolver` (A and AAAA), for the guarded agents. */
export function resolverLookup(resolver: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family;
    const v4 = family === 6 ? Promise.resolve([]) : resolver.resolve4(hostname);
    const v6 = family === 4 ? Promise.resolve([]) : resolver.resolve6(hostname);
    void Promise.allSettled([v4, v6]).then(([four, six]) => {
      const addresses: LookupAddress[] = [
        ...(four.status === 'fulfilled' ? four.value.map((address) => ({ address, family: 4 })) : []),
        ...(six.status === 'fulfilled' ? six.value.map((address) => ({ address, family: 6 })) : []),
      ];
      const first = addresses[0];
      if (first === undefined) {
        const reason = four.status === 'rejected' ? (four.reason as Error) : undefined;
        const error = reason ?? Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' });
        callback(error as NodeJS.ErrnoException, '', 0);
        return;
      }
      if (options.all === true) (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      else callback(null, first.address, first.family);
    });
  };
}

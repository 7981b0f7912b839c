/** The configuration read from the environment: the name servers domain verification asks, the password hash cost. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../gateway/config.js';
import { hashPassword, verifyPassword } from '../../gateway/dashboard/passwords.js';

describe('GATEWAY_DNS_SERVERS', () => {
  it("is the system's resolvers when unset or blank", () => {
    expect(loadConfig({}).dnsServers).toEqual([]);
    expect(loadConfig({ GATEWAY_DNS_SERVERS: ' ' }).dnsServers).toEqual([]);
  });

  it('lists IP addresses, each with an optional port', () => {
    expect(
      loadConfig({ GATEWAY_DNS_SERVERS: '1.1.1.1, 127.0.0.1:5353,[2001:4860:4860::8888]:53,::1' }).dnsServers,
    ).toEqual(['1.1.1.1', '127.0.0.1:5353', '[2001:4860:4860::8888]:53', '::1']);
  });

  it('refuses names and bad ports', () => {
    for (const value of ['dns.google', '1.1.1.1:0', '1.1.1.1:70000', '1.1.1.1,,8.8.8.8']) {
      expect(() => loadConfig({ GATEWAY_DNS_SERVERS: value }), value).toThrow(ConfigError);
    }
  });
});

describe('GATEWAY_BANK_TRANSFER_DETAILS', () => {
  it('is no lines when unset, else the lines between | trimmed, empty ones left out', () => {
    expect(loadConfig({}).billing.bankTransferDetails).toEqual([]);
    expect(
      loadConfig({ GATEWAY_BANK_TRANSFER_DETAILS: ' Ararat Bank | Account 1570-01 || Payee: Gateway LLC ' }).billing
        .bankTransferDetails,
    ).toEqual(['Ararat Bank', 'Account 1570-01', 'Payee: Gateway LLC']);
  });
});

describe('GATEWAY_PASSWORD_HASH_COST', () => {
  it("is scrypt's N = 2^16 by default, and a new password is hashed at the cost set", async () => {
    expect(loadConfig({}).passwordHashCost).toBe(16);
    const cost = loadConfig({ GATEWAY_PASSWORD_HASH_COST: '11' }).passwordHashCost;
    expect(cost).toBe(11);
    const hash = await hashPassword('correct horse battery', cost);
    expect(hash.startsWith('scrypt$11$8$1$')).toBe(true);
    // A stored hash carries its cost: it verifies whatever the setting is now.
    expect(await verifyPassword('correct horse battery', hash)).toBe(true);
    expect(await verifyPassword('correct horse battery', hash, 16)).toBe(true);
  });

  it('refuses a cost below 2^10 or above 2^20', () => {
    expect(() => loadConfig({ GATEWAY_PASSWORD_HASH_COST: '9' })).toThrow(/GATEWAY_PASSWORD_HASH_COST/);
    expect(() => loadConfig({ GATEWAY_PASSWORD_HASH_COST: '21' })).toThrow(/GATEWAY_PASSWORD_HASH_COST/);
  });
});

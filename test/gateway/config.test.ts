/** The configuration read from the environment: the name servers domain verification asks. */
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../gateway/config.js';

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

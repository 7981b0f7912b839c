/**
 * Which addresses outbound calls (webhooks, the connector's store calls) may reach (spec "Delivery
 * rules" 3): every private or reserved range, IPv4 and IPv6, and IPv6 forms that stand for one.
 */
import { describe, expect, it } from 'vitest';
import {
  forbiddenAddressReason,
  isForbiddenAddress,
  isPrivateHost,
  privateHostReason,
} from '../../../gateway/outbound/private-addresses.js';

const FORBIDDEN: Array<[address: string, why: string]> = [
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback range'],
  ['0.0.0.0', 'this network'],
  ['10.0.0.1', 'private 10/8'],
  ['172.16.0.1', 'private 172.16/12'],
  ['172.31.255.255', 'private 172.16/12 upper end'],
  ['192.168.1.10', 'private 192.168/16'],
  ['100.64.0.1', 'carrier-grade NAT'],
  ['100.127.255.254', 'carrier-grade NAT upper end'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation TEST-NET-1'],
  ['198.18.0.1', 'benchmarking'],
  ['198.51.100.7', 'documentation TEST-NET-2'],
  ['203.0.113.9', 'documentation TEST-NET-3'],
  ['224.0.0.251', 'multicast'],
  ['239.255.255.250', 'multicast'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'broadcast'],
  ['::1', 'IPv6 loopback'],
  ['::', 'IPv6 unspecified'],
  ['[::1]', 'IPv6 loopback in URL brackets'],
  ['fe80::1', 'IPv6 link-local'],
  ['fe80::1%eth0', 'IPv6 link-local with zone'],
  ['fc00::1', 'IPv6 unique local'],
  ['fd12:3456:789a::1', 'IPv6 unique local'],
  ['fec0::1', 'IPv6 site-local'],
  ['ff02::1', 'IPv6 multicast'],
  ['2001:db8::1', 'IPv6 documentation'],
  ['2001::1', 'Teredo'],
  ['100::1', 'IPv6 discard'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
  ['::ffff:10.0.0.1', 'IPv4-mapped private'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of 169.254.169.254'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated loopback'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback, hex form (as URLs write it)'],
  ['::ffff:0:a00:1', 'IPv4-translated 10.0.0.1'],
  ['::ffff:0:169.254.169.254', 'IPv4-translated link-local'],
  ['64:ff9b:1::7f00:1', 'local-use NAT64'],
  ['64:ff9b:1::808:808', 'local-use NAT64, whatever IPv4 address it carries'],
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use NAT64 upper end'],
  ['::127.0.0.1', 'IPv4-compatible loopback'],
  ['2002:c0a8:0101::1', '6to4 of 192.168.1.1'],
  ['localhost', 'not an IP address'],
  ['example.com', 'not an IP address'],
  ['', 'empty'],
];

const ALLOWED: Array<[address: string, why: string]> = [
  ['8.8.8.8', 'public IPv4'],
  ['93.184.216.34', 'public IPv4'],
  ['172.32.0.1', 'just above 172.16/12'],
  ['100.128.0.1', 'just above CGNAT'],
  ['2606:4700:4700::1111', 'public IPv6'],
  ['2001:4860:4860::8888', 'public IPv6 outside 2001::/23'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['2002:0808:0808::1', '6to4 of a public IPv4'],
  ['::ffff:0:8.8.8.8', 'IPv4-translated public'],
  ['64:ff9b::808:808', 'well-known NAT64 of a public IPv4'],
  ['64:ff9b:2::1', 'just above the local-use NAT64 prefix'],
];

describe('private addresses', () => {
  it.each(FORBIDDEN)('refuses %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(ALLOWED)('allows %s (%s)', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });
});

describe('why an address is private', () => {
  it('names the range every refused address lies in, and none for an allowed one', () => {
    for (const [address] of FORBIDDEN) expect(forbiddenAddressReason(address), address).not.toBeNull();
    for (const [address] of ALLOWED) expect(forbiddenAddressReason(address), address).toBeNull();
  });

  it.each([
    ['127.0.0.1', 'loopback'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:10.0.0.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata lives here)'],
    ['fd00::1', 'unique local'],
    ['example.com', 'not an IP address'],
  ])('%s: %s', (address, why) => {
    expect(forbiddenAddressReason(address)).toBe(why);
  });

  it.each([
    ['localhost', 'localhost'],
    ['API.Localhost.', 'localhost'],
    ['[::1]', '::1: loopback'],
    ['192.168.1.20', '192.168.1.20: private'],
    ['shop.am', null],
    ['8.8.8.8', null],
    ['localhost.shop.am', null],
  ])('a URL host %s is private: %s', (host, why) => {
    expect(privateHostReason(host)).toBe(why);
    expect(isPrivateHost(host)).toBe(why !== null);
  });
});

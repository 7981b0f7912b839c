/**
 * Addresses that calls leaving the service (webhook deliveries, the connector's store calls) may
 * not reach (spec "Delivery rules" 3): loopback, private, link-local, CGNAT, multicast,
 * documentation and reserved ranges, IPv4 and IPv6. IPv6 forms that stand for an IPv4 address
 * (IPv4-mapped, IPv4-translated, IPv4-compatible, NAT64 well-known prefix, 6to4) are judged by that
 * IPv4 address, with the same table. Callers check the address they actually connect to, after
 * DNS (./guarded-agents.ts).
 */
import { BlockList, isIP, isIPv4, isIPv6 } from 'node:net';

/** The one table of ranges refused, IPv4 and IPv6. */
export const PRIVATE_RANGES: ReadonlyArray<readonly [cidr: string, why: string]> = [
  ['0.0.0.0/8', '"this network"'],
  ['10.0.0.0/8', 'private'],
  ['100.64.0.0/10', 'carrier-grade NAT'],
  ['127.0.0.0/8', 'loopback'],
  ['169.254.0.0/16', 'link-local (cloud metadata lives here)'],
  ['172.16.0.0/12', 'private'],
  ['192.0.0.0/24', 'IETF protocol assignments'],
  ['192.0.2.0/24', 'documentation'],
  ['192.88.99.0/24', '6to4 relay anycast'],
  ['192.168.0.0/16', 'private'],
  ['198.18.0.0/15', 'benchmarking'],
  ['198.51.100.0/24', 'documentation'],
  ['203.0.113.0/24', 'documentation'],
  ['224.0.0.0/4', 'multicast'],
  ['240.0.0.0/4', 'reserved, and 255.255.255.255 broadcast'],
  ['::/128', 'unspecified'],
  ['::1/128', 'loopback'],
  // RFC 8215: where the IPv4 address sits depends on the local translator, so the whole prefix is refused.
  ['64:ff9b:1::/48', 'local-use NAT64'],
  ['100::/64', 'discard-only'],
  ['2001::/23', 'IETF protocol assignments (Teredo, ORCHID, ...)'],
  ['2001:db8::/32', 'documentation'],
  ['fc00::/7', 'unique local'],
  ['fe80::/10', 'link-local'],
  ['fec0::/10', 'site-local (deprecated)'],
  ['ff00::/8', 'multicast'],
];

const blocked = new BlockList();
/** Each range alone, to name the one an address lies in. */
const named = PRIVATE_RANGES.map(([cidr, why]) => {
  const [network = '', prefix = ''] = cidr.split('/');
  const family = isIPv4(network) ? 'ipv4' : 'ipv6';
  blocked.addSubnet(network, Number(prefix), family);
  const own = new BlockList();
  own.addSubnet(network, Number(prefix), family);
  return { own, family, why } as const;
});

/** Expands an IPv6 address to its eight 16-bit groups. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.split('%')[0] ?? address;
  // A trailing dotted IPv4 (::ffff:1.2.3.4) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const octets = dotted[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const front = parse(head);
  const back = tail === undefined ? [] : parse(tail);
  const missing = 8 - front.length - back.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return undefined;
  return [...front, ...new Array<number>(missing).fill(0), ...back];
}

function ipv4FromGroups(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/**
 * The IPv4 address an IPv6 address stands for: IPv4-mapped `::ffff:a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, IPv4-compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d` or 6to4 `2002:AABB:CCDD::`.
 */
function embeddedIpv4(address: string): string | undefined {
  const g = ipv6Groups(address);
  if (g === undefined) return undefined;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  const zeroUpTo4 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  if (zeroUpTo4 && g4 === 0 && (g5 === 0xffff || g5 === 0)) return ipv4FromGroups(g6, g7); // mapped, compatible
  if (zeroUpTo4 && g4 === 0xffff && g5 === 0) return ipv4FromGroups(g6, g7); // translated (SIIT)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return ipv4FromGroups(g6, g7);
  if (g0 === 0x2002) return ipv4FromGroups(g1 ?? 0, g2 ?? 0);
  return undefined;
}

/** The address as the tables check it: IPv4 (an IPv6 form standing for one included), IPv6, or null: not an IP address. */
function checkedForm(address: string): { ip: string; family: 'ipv4' | 'ipv6' } | null {
  const ip = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(ip)) return { ip, family: 'ipv4' };
  if (!isIPv6(ip)) return null;
  const v4 = embeddedIpv4(ip);
  if (v4 !== undefined) return { ip: v4, family: 'ipv4' };
  return { ip: ip.split('%')[0] ?? ip, family: 'ipv6' };
}

/** Whether outbound calls may not reach this IP address. Anything that is not an IP address is refused. */
export function isForbiddenAddress(address: string): boolean {
  const form = checkedForm(address);
  return form === null || blocked.check(form.ip, form.family);
}

/** Why outbound calls may not reach this IP address (its range, in words), or null when they may. */
export function forbiddenAddressReason(address: string): string | null {
  const form = checkedForm(address);
  if (form === null) return 'not an IP address';
  const inRange = (ip: string, family: 'ipv4' | 'ipv6') =>
    named.find((range) => range.family === family && range.own.check(ip, family))?.why;
  // An IPv6 range of its own (`::1` loopback) names it better than the IPv4 address it may stand for.
  const ip = address.replace(/^\[|\]$/g, '').split('%')[0] ?? address;
  const own = form.family === 'ipv4' && isIPv6(ip) ? inRange(ip, 'ipv6') : undefined;
  return own ?? inRange(form.ip, form.family) ?? null;
}

/**
 * Whether a URL's host names a private place without any lookup: `localhost` (and its
 * subdomains) or a private IP literal. Used to refuse such a webhook URL when it is set; a name
 * that resolves to a private address is refused when connecting (./guarded-agents.ts).
 */
export function isPrivateHost(hostname: string): boolean {
  return privateHostReason(hostname) !== null;
}

/**
 * What makes a URL's host a private place, in words (`localhost`, `127.0.0.1: loopback`), or null
 * when it names none without a lookup (see {@link isPrivateHost}).
 */
export function privateHostReason(hostname: string): string | null {
  const host = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return 'localhost';
  if (isIP(host) === 0) return null;
  const why = forbiddenAddressReason(host);
  return why === null ? null : `${host}: ${why}`;
}

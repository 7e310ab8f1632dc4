import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Where webhook endpoints may be. `allowPrivateNetworks` is a development setting (the tests' receivers). */
export interface EndpointPolicy {
  readonly allowPrivateNetworks: boolean;
}

/** Every address a host name resolves to (all of them: one private answer among public ones is refused). */
export type Resolver = (host: string) => Promise<string[]>;

export const resolveAll: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((found) => found.address);

/** An endpoint the policy refuses; `reason` says why, in words an administrator acts on. */
export class EndpointRefusedError extends Error {
  readonly reason: string;
  constructor(reason: string) {
    super(`webhook endpoint refused: ${reason}`);
    this.name = 'EndpointRefusedError';
    this.reason = reason;
  }
}

// Addresses a server-side request must never reach from here: this host, its links, private and
// shared networks, and whatever IANA reserves. Written as CIDR blocks, decided by node's BlockList.
const FORBIDDEN_V4: readonly [string, number, string][] = [
  ['0.0.0.0', 8, 'an unspecified'],
  ['10.0.0.0', 8, 'a private'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'a loopback'],
  ['169.254.0.0', 16, 'a link-local'],
  ['172.16.0.0', 12, 'a private'],
  ['192.0.0.0', 24, 'a reserved'],
  ['192.0.2.0', 24, 'a documentation'],
  ['192.168.0.0', 16, 'a private'],
  ['198.18.0.0', 15, 'a benchmarking'],
  ['198.51.100.0', 24, 'a documentation'],
  ['203.0.113.0', 24, 'a documentation'],
  ['224.0.0.0', 4, 'a multicast'],
  ['240.0.0.0', 4, 'a reserved'],
];
const FORBIDDEN_V6: readonly [string, number, string][] = [
  ['::', 128, 'an unspecified'],
  ['::1', 128, 'a loopback'],
  ['64:ff9b::', 96, 'a translated'],
  ['100::', 64, 'a discard'],
  ['2001:db8::', 32, 'a documentation'],
  ['fc00::', 7, 'a unique-local (private)'],
  ['fe80::', 10, 'a link-local'],
  ['ff00::', 8, 'a multicast'],
];

const blocks = [
  ...FORBIDDEN_V4.map((b) => [...b, 'ipv4'] as const),
  ...FORBIDDEN_V6.map((b) => [...b, 'ipv6'] as const),
].map(([network, prefix, kind, family]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family);
  return { list, kind, family };
});

/** The IPv4 address an IPv4-mapped or -compatible IPv6 address carries (::ffff:127.0.0.1), if any. */
function embeddedIpv4(address: string): string | undefined {
  const match = /^(?:0{0,4}:){0,5}(?:ffff:)?(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address.replace(/^::/, ''));
  if (match?.[1] !== undefined && isIP(match[1]) === 4) return match[1];
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (hex?.[1] === undefined || hex[2] === undefined) return undefined;
  const high = Number.parseInt(hex[1], 16);
  const low = Number.parseInt(hex[2], 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** What kind of forbidden address this is ("a loopback"), or undefined for a public one. */
export function forbiddenKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'an invalid';
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== undefined) return forbiddenKind(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return blocks.find((block) => block.family === type && block.list.check(address, type))?.kind;
}

export const isForbiddenAddress = (address: string): boolean => forbiddenKind(address) !== undefined;

/** Refuses an address the policy forbids (at subscription and again at each connection). */
export function checkAddress(address: string, policy: EndpointPolicy, host = address): void {
  if (policy.allowPrivateNetworks) return;
  const kind = forbiddenKind(address);
  if (kind !== undefined)
    throw new EndpointRefusedError(
      host === address ? `${address} is ${kind} address` : `${host} resolves to ${address}, ${kind} address`,
    );
}

/**
 * An endpoint an administrator may subscribe: `https:`, without credentials, on a host whose every
 * address is public (unless the development setting allows private networks).
 */
export async function checkEndpointUrl(
  url: string,
  policy: EndpointPolicy,
  resolve: Resolver = resolveAll,
): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EndpointRefusedError('is not a URL');
  }
  if (parsed.protocol !== 'https:') throw new EndpointRefusedError('must use https:');
  if (parsed.username !== '' || parsed.password !== '')
    throw new EndpointRefusedError('must not carry a user name or password');
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    checkAddress(host, policy);
    return;
  }
  if (!policy.allowPrivateNetworks && (host === 'localhost' || host.endsWith('.localhost')))
    throw new EndpointRefusedError(`${host} is a loopback name`);
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new EndpointRefusedError(`${host} does not resolve`);
  }
  if (addresses.length === 0) throw new EndpointRefusedError(`${host} does not resolve`);
  for (const address of addresses) checkAddress(address, policy, host);
}

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
// shared networks, and whatever IANA reserves. node's BlockList decides membership, and matches an
// IPv4-mapped IPv6 address (::ffff:127.0.0.1) against the IPv4 blocks itself.
const FORBIDDEN: readonly (readonly [network: string, prefix: number, kind: string])[] = [
  ['0.0.0.0', 8, 'an unspecified'],
  ['10.0.0.0', 8, 'a private'],
  ['100.64.0.0', 10, 'a shared (carrier-grade NAT)'],
  ['127.0.0.0', 8, 'a loopback'],
  ['169.254.0.0', 16, 'a link-local'],
  ['172.16.0.0', 12, 'a private'],
  ['192.0.0.0', 24, 'a reserved'],
  ['192.0.2.0', 24, 'a documentation'],
  ['192.88.99.0', 24, 'a reserved (6to4 relay)'],
  ['192.168.0.0', 16, 'a private'],
  ['198.18.0.0', 15, 'a benchmarking'],
  ['198.51.100.0', 24, 'a documentation'],
  ['203.0.113.0', 24, 'a documentation'],
  ['224.0.0.0', 4, 'a multicast'],
  ['240.0.0.0', 4, 'a reserved'],
  ['::', 128, 'an unspecified'],
  ['::1', 128, 'a loopback'],
  // IPv4-compatible (deprecated), NAT64, 6to4 and Teredo addresses carry an IPv4 address a gateway
  // may reach for us: refused whole rather than decoded.
  ['::', 96, 'an IPv4-compatible'],
  ['64:ff9b::', 96, 'a translated (NAT64)'],
  ['64:ff9b:1::', 48, 'a translated (NAT64)'],
  ['100::', 64, 'a discard'],
  ['2001::', 32, 'a tunnelled (Teredo)'],
  ['2001:db8::', 32, 'a documentation'],
  ['2002::', 16, 'a tunnelled (6to4)'],
  ['fc00::', 7, 'a unique-local (private)'],
  ['fe80::', 10, 'a link-local'],
  ['fec0::', 10, 'a site-local'],
  ['ff00::', 8, 'a multicast'],
];

const blocks = FORBIDDEN.map(([network, prefix, kind]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
  return { list, kind };
});

/** What kind of forbidden address this is ("a loopback"), or undefined for a public one. */
export function forbiddenKind(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'an invalid';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return blocks.find((block) => block.list.check(address, type))?.kind;
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
 * The rules an endpoint URL must follow whatever its host resolves to: a URL, `https:`, without
 * credentials, not a forbidden IP literal nor a loopback name. Returns the host to resolve, or
 * undefined for an IP literal (checked here). Synchronous: each attempt checks it, and the
 * connection's guarded lookup checks the addresses the name resolves to.
 */
export function checkEndpointForm(url: string, policy: EndpointPolicy): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new EndpointRefusedError('is not a URL');
  }
  if (parsed.protocol !== 'https:') throw new EndpointRefusedError('must use https:');
  if (parsed.username !== '' || parsed.password !== '')
    throw new EndpointRefusedError('must not carry a user name or password');
  // The URL parser has already normalised 0x7f.1 and 2130706433 to 127.0.0.1.
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) {
    checkAddress(host, policy);
    return undefined;
  }
  const name = host.replace(/\.$/, '');
  if (!policy.allowPrivateNetworks && (name === 'localhost' || name.endsWith('.localhost')))
    throw new EndpointRefusedError(`${name} is a loopback name`);
  return host;
}

/**
 * An endpoint an administrator may subscribe: its form (above), on a host whose every address is
 * public (unless the development setting allows private networks).
 */
export async function checkEndpointUrl(
  url: string,
  policy: EndpointPolicy,
  resolve: Resolver = resolveAll,
): Promise<void> {
  const host = checkEndpointForm(url, policy);
  if (host === undefined) return;
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new EndpointRefusedError(`${host} does not resolve`);
  }
  if (addresses.length === 0) throw new EndpointRefusedError(`${host} does not resolve`);
  for (const address of addresses) checkAddress(address, policy, host);
}

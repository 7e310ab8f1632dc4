import { BlockList, isIP } from 'node:net';

/** Where nginx runs in the default deployment: on the instance's own machine. */
export const DEFAULT_TRUSTED_PROXIES: readonly string[] = Object.freeze(['127.0.0.1', '::1']);

/** Why one entry of TRUSTED_PROXIES is not an address or a CIDR block; undefined when it is. */
export function proxyAddressProblem(entry: string): string | undefined {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0)
    return `"${entry}" is not an IP address or a CIDR block such as 10.0.0.0/8`;
  if (prefix === undefined) return undefined;
  const bits = family === 4 ? 32 : 128;
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits) {
    return `"${entry}": the prefix length of an IPv${family} block is 0 to ${bits}`;
  }
  return undefined;
}

/**
 * Whether a TCP peer is one of the proxies: only such a peer's X-Forwarded-* headers are its own
 * observations, any other caller can write them. IPv4 peers of a dual-stack socket (::ffff:a.b.c.d)
 * match their IPv4 entries (BlockList maps them).
 */
export function trustedPeers(entries: readonly string[]): (peer: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return (peer) => {
    if (peer === undefined) return false;
    const family = isIP(peer);
    return family !== 0 && list.check(peer, family === 6 ? 'ipv6' : 'ipv4');
  };
}

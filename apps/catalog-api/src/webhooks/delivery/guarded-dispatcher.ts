import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { checkAddress, type EndpointPolicy } from './endpoint-policy.ts';

/** node's `lookup` as net.connect calls it: what a test replaces to answer as it likes. */
export type ConnectLookup = LookupFunction;

/**
 * The `lookup` every webhook connection resolves its host with: the address it connects to is
 * checked against the policy there, after resolution, so a name that resolved to a public address
 * when subscribed and to a private one now (DNS rebinding) is refused at connect.
 */
export function guardedLookup(
  policy: EndpointPolicy,
  lookup: ConnectLookup = dnsLookup as ConnectLookup,
): ConnectLookup {
  return (hostname, options, callback) => {
    lookup(hostname, options, (error, address, family) => {
      if (error !== null) return callback(error, address, family);
      try {
        for (const found of Array.isArray(address) ? address : [{ address, family: family ?? 4 }])
          checkAddress(found.address, policy, hostname);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, '', 4);
      }
      callback(null, address, family);
    });
  };
}

/**
 * The connection pool of webhook deliveries: the policy checked at connect, the system's CAs plus
 * any given (the local CA of a development machine), and time-outs on connect, headers and body so
 * that a slow endpoint holds a slot for a bounded time.
 */
export function createGuardedAgent(options: {
  policy: EndpointPolicy;
  caCertificates?: readonly string[];
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  connectionsPerOrigin: number;
  lookup?: ConnectLookup;
}): Agent {
  const extra = options.caCertificates ?? [];
  return new Agent({
    connections: options.connectionsPerOrigin,
    connectTimeout: options.connectTimeoutMs,
    headersTimeout: options.responseTimeoutMs,
    bodyTimeout: options.responseTimeoutMs,
    connect: {
      timeout: options.connectTimeoutMs,
      lookup: guardedLookup(options.policy, options.lookup),
      ...(extra.length === 0 ? {} : { ca: [...rootCertificates, ...extra] }),
    },
  });
}

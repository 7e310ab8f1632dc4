import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { createSecureContext, getCACertificates } from 'node:tls';
import { Agent, buildConnector } from 'undici';
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
        // net.connect asks for every address (`all: true`) when it races IPv4 and IPv6.
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
 * The connection pool of webhook deliveries: every address checked against the policy at connect,
 * the default CAs plus any given (the local CA of a development machine), and time-outs on connect,
 * headers and body so that a slow endpoint holds a slot for a bounded time.
 */
export function createGuardedAgent(options: {
  policy: EndpointPolicy;
  caCertificates?: readonly string[];
  connectTimeoutMs: number;
  responseTimeoutMs: number;
  connectionsPerOrigin: number;
  /** Replaces the system resolver under the guard (tests answer as a rebinding DNS server would). */
  lookup?: ConnectLookup;
}): Agent {
  const extra = options.caCertificates ?? [];
  // undici spreads these into tls.connect, which hands `lookup` to net.connect: the guard runs on
  // every new connection. net.connect skips `lookup` for an IP literal, so those are checked here.
  // One context for every connection: given `ca` instead, tls.connect built a context from the
  // hundred-odd default CAs on each new connection (about a tenth of the API's busy time in the
  // bench's CPU profile).
  const connectGuarded = buildConnector({
    timeout: options.connectTimeoutMs,
    lookup: guardedLookup(options.policy, options.lookup),
    ...(extra.length === 0
      ? {}
      : { secureContext: createSecureContext({ ca: [...getCACertificates('default'), ...extra] }) }),
  });
  return new Agent({
    connections: options.connectionsPerOrigin,
    headersTimeout: options.responseTimeoutMs,
    bodyTimeout: options.responseTimeoutMs,
    connect(target, callback) {
      if (isIP(target.hostname) !== 0)
        try {
          checkAddress(target.hostname, options.policy);
        } catch (refused) {
          return callback(refused as Error, null);
        }
      connectGuarded(target, callback);
    },
  });
}

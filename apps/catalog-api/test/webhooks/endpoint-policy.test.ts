// Server-side request forgery: the endpoint rules when a URL is checked, and again when the guarded
// agent connects (a name that resolved to a public address may resolve to a private one later).
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkEndpointUrl,
  EndpointRefusedError,
  isForbiddenAddress,
} from '../../src/webhooks/delivery/endpoint-policy.ts';
import { type ConnectLookup, createGuardedAgent } from '../../src/webhooks/delivery/guarded-dispatcher.ts';
import { createWebhookSender } from '../../src/webhooks/delivery/send-webhook.ts';
import { generateWebhookSecret } from '../../src/webhooks/delivery/sign-webhook.ts';
import { type HttpsReceiver, startHttpsReceiver } from './support/https-receiver.ts';

const DEV = { allowPrivateNetworks: true };
const STRICT = { allowPrivateNetworks: false };
const publicResolver = async () => ['93.184.216.34'];
const loopbackResolver = async () => ['127.0.0.1', '::1'];

async function refusal(url: string, policy = STRICT, resolve = publicResolver) {
  const error = await checkEndpointUrl(url, policy, resolve).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof EndpointRefusedError)) throw new Error(`${url} was not refused`);
  return error.reason;
}

describe('endpoint rules when a URL is checked', () => {
  it('refuses http:, even with the development setting', async () => {
    expect(await refusal('http://hooks.example.com/x')).toBe('must use https:');
    expect(await refusal('http://127.0.0.1/x', DEV)).toBe('must use https:');
  });

  it('refuses a user name or password in the URL, even with the development setting', async () => {
    expect(await refusal('https://user:pass@hooks.example.com/x')).toBe(
      'must not carry a user name or password',
    );
    expect(await refusal('https://user@127.0.0.1/x', DEV)).toBe('must not carry a user name or password');
  });

  it.each([
    ['https://127.0.0.1/x', /127\.0\.0\.1 is a loopback address/],
    ['https://2130706433/x', /127\.0\.0\.1 is a loopback address/],
    ['https://localhost/x', /loopback/],
    ['https://169.254.169.254/latest/meta-data/', /link-local/],
    ['https://10.1.2.3/x', /private/],
    ['https://172.20.0.1/x', /private/],
    ['https://192.168.1.1/x', /private/],
    ['https://100.64.0.1/x', /carrier-grade NAT/],
    ['https://0.0.0.0/x', /unspecified/],
    ['https://[::1]/x', /loopback/],
    ['https://[::]/x', /unspecified/],
    ['https://[::ffff:127.0.0.1]/x', /loopback/],
    ['https://[::ffff:a9fe:a9fe]/x', /link-local/],
    ['https://[fd00::1]/x', /unique-local/],
    ['https://[fe80::1]/x', /link-local/],
    ['https://[ff02::1]/x', /multicast/],
  ])('refuses %s without the development setting', async (url, reason) => {
    expect(await refusal(url)).toMatch(reason);
  });

  it.each([
    'https://127.0.0.1/x',
    'https://localhost/x',
    'https://169.254.169.254/x',
    'https://10.1.2.3/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
  ])('allows %s with the development setting (allowPrivateNetworks)', async (url) => {
    await expect(checkEndpointUrl(url, DEV, loopbackResolver)).resolves.toBeUndefined();
  });

  it('refuses a host any one of whose addresses is private, and accepts one whose addresses are all public', async () => {
    expect(
      await refusal('https://hooks.example.com/x', STRICT, async () => ['93.184.216.34', '10.0.0.5']),
    ).toBe('hooks.example.com resolves to 10.0.0.5, a private address');
    await expect(
      checkEndpointUrl('https://hooks.example.com/x', STRICT, async () => [
        '93.184.216.34',
        '2606:2800:21f::1',
      ]),
    ).resolves.toBeUndefined();
  });

  it('refuses a host that does not resolve', async () => {
    const nowhere = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' });
    };
    expect(await refusal('https://nowhere.example/x', STRICT, nowhere)).toMatch(/does not resolve/);
  });

  it('isForbiddenAddress: reserved ranges of both families are forbidden, public addresses are not', () => {
    const forbidden = [
      '198.18.0.1',
      '192.0.2.1',
      '224.0.0.1',
      '255.255.255.255',
      '2001:db8::1',
      '::ffff:10.0.0.1',
    ];
    const allowed = ['8.8.8.8', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8'];
    expect(forbidden.filter((address) => !isForbiddenAddress(address))).toEqual([]);
    expect(allowed.filter(isForbiddenAddress)).toEqual([]);
  });
});

describe('endpoint rules when the guarded agent connects', () => {
  let receiver: HttpsReceiver;
  beforeAll(async () => {
    receiver = await startHttpsReceiver();
  });
  afterAll(() => receiver.close());

  const agentResolvingTo = (addresses: string[]) => {
    const lookup: ConnectLookup = (_hostname, options, callback) => {
      const all = addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      if (options.all === true) return callback(null, all);
      const [first] = all;
      return callback(null, first?.address ?? '', first?.family ?? 4);
    };
    return createGuardedAgent({
      policy: STRICT,
      caCertificates: [receiver.ca],
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 30_000,
      connectionsPerOrigin: 1,
      lookup,
    });
  };

  it('refuses at connect a name that resolves to loopback now though it resolved to a public address when checked (DNS rebinding)', async () => {
    const agent = agentResolvingTo(['127.0.0.1']);
    const send = createWebhookSender({ dispatcher: agent, policy: STRICT }).send;
    const outcome = await send({
      url: `https://rebind.example:${receiver.port}/rebound`,
      messageId: 'msg_rebind',
      timestamp: new Date(),
      body: '{}',
      secrets: [generateWebhookSecret()],
    });
    expect(outcome).toMatchObject({ kind: 'refused', statusCode: null });
    expect(outcome.error).toMatch(/rebind\.example resolves to 127\.0\.0\.1, a loopback address/);
    expect(receiver.receivedAt('/rebound')).toEqual([]);
    await agent.destroy();
  });

  it('refuses at connect when any one of the addresses a name resolves to is forbidden', async () => {
    const agent = agentResolvingTo(['93.184.216.34', '127.0.0.1']);
    const failure = await request(`https://mixed.example:${receiver.port}/mixed`, {
      method: 'POST',
      dispatcher: agent,
      body: '{}',
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EndpointRefusedError);
    expect(receiver.receivedAt('/mixed')).toEqual([]);
    await agent.destroy();
  });

  it('refuses at connect an IP literal the policy forbids (net.connect does not look it up)', async () => {
    const agent = agentResolvingTo(['93.184.216.34']);
    const failure = await request(`https://127.0.0.1:${receiver.port}/literal`, {
      method: 'POST',
      dispatcher: agent,
      body: '{}',
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(EndpointRefusedError);
    expect((failure as EndpointRefusedError).reason).toBe('127.0.0.1 is a loopback address');
    expect(receiver.receivedAt('/literal')).toEqual([]);
    await agent.destroy();
  });
});

// The outgoing side of webhooks against a real HTTPS endpoint on loopback (a certificate of a local
// CA made for the test): signatures a receiver verifies with the standardwebhooks package, how each
// answer is classified, the endpoint rules (server-side request forgery) at subscription and at
// connect, secret sealing, and the retry schedule.
import { rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { ensureLocalTls } from '@catalog/server-runtime';
import { tempDataDir } from '@catalog/store/testing';
import { Webhook } from 'standardwebhooks';
import type { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkEndpointUrl,
  EndpointRefusedError,
  isForbiddenAddress,
} from '../../src/webhooks/delivery/endpoint-policy.ts';
import { createGuardedAgent } from '../../src/webhooks/delivery/guarded-dispatcher.ts';
import { nextRetryDelayMs, parseRetryAfter } from '../../src/webhooks/delivery/retry-schedule.ts';
import { createWebhookSender } from '../../src/webhooks/delivery/send-webhook.ts';
import { generateWebhookSecret } from '../../src/webhooks/delivery/sign-webhook.ts';
import {
  sealWebhookSecret,
  unsealWebhookSecret,
  webhookSecretSealingKey,
} from '../../src/webhooks/delivery/webhook-secret-sealing.ts';

interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

let dataDir: string;
let server: Server;
let port: number;
let ca: string;
const received: Received[] = [];
let answer: (path: string) => { status: number; headers?: Record<string, string>; body?: string } | 'hang' =
  () => ({
    status: 204,
  });

beforeAll(async () => {
  dataDir = tempDataDir();
  const tls = await ensureLocalTls(dataDir);
  ca = tls.ca as string;
  server = createServer({ key: tls.key, cert: tls.cert }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const reply = answer(path);
      if (reply === 'hang') return;
      response.writeHead(reply.status, reply.headers);
      response.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

const DEV = { allowPrivateNetworks: true };
const STRICT = { allowPrivateNetworks: false };

function sender(options: { responseTimeoutMs?: number; trust?: boolean } = {}): {
  agent: Agent;
  send: ReturnType<typeof createWebhookSender>['send'];
} {
  const agent = createGuardedAgent({
    policy: DEV,
    caCertificates: options.trust === false ? [] : [ca],
    connectTimeoutMs: 5000,
    responseTimeoutMs: options.responseTimeoutMs ?? 5000,
    connectionsPerOrigin: 4,
  });
  return { agent, send: createWebhookSender({ dispatcher: agent, policy: DEV }).send };
}

const message = (path: string, secrets = [generateWebhookSecret()], body = '{"type":"product.changed"}') => ({
  url: `https://localhost:${port}${path}`,
  messageId: 'msg_0123456789abcdefghijklmnop',
  timestamp: new Date(),
  body,
  secrets,
});

describe('webhook sender', () => {
  it('sends a Standard Webhooks message that verifies with either secret while a rotation overlaps', async () => {
    const { agent, send } = sender();
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const outcome = await send(message('/ok', [current, previous]));
    expect(outcome).toMatchObject({ kind: 'delivered', statusCode: 204, error: null });
    const got = received.find((request) => request.path === '/ok') as Received;
    const headers = got.headers as Record<string, string>;
    expect(headers['webhook-id']).toBe('msg_0123456789abcdefghijklmnop');
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(got.body, headers)).toEqual({ type: 'product.changed' });
    expect(() => new Webhook(generateWebhookSecret()).verify(got.body, headers)).toThrow();
    await agent.close();
  });

  it('classifies answers: 410 is gone, 503 with Retry-After is a retry after it, 3xx is a retry that is never followed', async () => {
    const { agent, send } = sender();
    answer = (path) => {
      if (path === '/gone') return { status: 410 };
      if (path === '/busy') return { status: 503, headers: { 'retry-after': '7' } };
      if (path === '/moved')
        return { status: 302, headers: { location: `https://localhost:${port}/target` } };
      return { status: 204 };
    };
    expect(await send(message('/gone'))).toMatchObject({ kind: 'gone', statusCode: 410 });
    expect(await send(message('/busy'))).toMatchObject({
      kind: 'retry',
      statusCode: 503,
      retryAfterMs: 7000,
    });
    const moved = await send(message('/moved'));
    expect(moved).toMatchObject({ kind: 'retry', statusCode: 302 });
    expect(moved.error).toMatch(/redirects are not followed/);
    expect(received.some((request) => request.path === '/target')).toBe(false);
    answer = () => ({ status: 204 });
    await agent.close();
  });

  it('gives up on an endpoint that does not answer within the response time-out, an untrusted certificate, and a closed port', async () => {
    answer = (path) => (path === '/hang' ? 'hang' : { status: 204 });
    const slow = sender({ responseTimeoutMs: 200 });
    const hung = await slow.send(message('/hang'));
    expect(hung).toMatchObject({ kind: 'retry', statusCode: null });
    expect(hung.error).toMatch(/timed out/);
    await slow.agent.destroy();
    const untrusting = sender({ trust: false });
    const untrusted = await untrusting.send(message('/ok'));
    expect(untrusted).toMatchObject({ kind: 'retry', statusCode: null });
    expect(untrusted.error).toMatch(/certificate/);
    const closed = await untrusting.send({ ...message('/ok'), url: 'https://localhost:1/closed' });
    expect(closed).toMatchObject({ kind: 'retry', statusCode: null, error: 'connection refused' });
    await untrusting.agent.close();
    answer = () => ({ status: 204 });
  });

  it('reads no more of an answer than its cap, and never sends a body above the cap', async () => {
    answer = (path) =>
      path === '/large' ? { status: 200, body: 'x'.repeat(4 * 1024 * 1024) } : { status: 204 };
    const { agent, send } = sender();
    expect(await send(message('/large'))).toMatchObject({ kind: 'delivered', statusCode: 200 });
    const tooLarge = await send(message('/ok', undefined, 'x'.repeat(70 * 1024)));
    expect(tooLarge).toMatchObject({ kind: 'refused' });
    answer = () => ({ status: 204 });
    await agent.close();
  });
});

describe('webhook endpoint rules (server-side request forgery)', () => {
  const publicResolver = async () => ['93.184.216.34'];

  it.each([
    ['http://hooks.example.com/x', /https/],
    ['https://user:pass@hooks.example.com/x', /user name or password/],
    ['https://127.0.0.1/x', /loopback/],
    ['https://localhost/x', /loopback/],
    ['https://169.254.169.254/latest/meta-data', /link-local/],
    ['https://10.1.2.3/x', /private/],
    ['https://192.168.1.1/x', /private/],
    ['https://[::1]/x', /loopback/],
    ['https://[::ffff:127.0.0.1]/x', /loopback/],
    ['https://[fd00::1]/x', /unique-local/],
  ])('refuses %s without the development setting', async (url, reason) => {
    const refusal = await checkEndpointUrl(url, STRICT, publicResolver).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(EndpointRefusedError);
    expect((refusal as EndpointRefusedError).reason).toMatch(reason);
  });

  it('refuses a host any of whose addresses is private, and accepts a public one', async () => {
    await expect(
      checkEndpointUrl('https://hooks.example.com/x', STRICT, async () => ['93.184.216.34', '10.0.0.5']),
    ).rejects.toThrow(/resolves to 10\.0\.0\.5, a private address/);
    await expect(
      checkEndpointUrl('https://hooks.example.com/x', STRICT, publicResolver),
    ).resolves.toBeUndefined();
  });

  it('allows loopback and private addresses with the development setting, never http: or credentials', async () => {
    await expect(checkEndpointUrl('https://127.0.0.1/x', DEV)).resolves.toBeUndefined();
    await expect(checkEndpointUrl('https://10.1.2.3/x', DEV)).resolves.toBeUndefined();
    await expect(checkEndpointUrl('http://127.0.0.1/x', DEV)).rejects.toThrow(/https/);
    await expect(checkEndpointUrl('https://a:b@127.0.0.1/x', DEV)).rejects.toThrow(/password/);
  });

  it('classifies addresses with the block list: public ones pass', () => {
    expect(['8.8.8.8', '93.184.216.34', '2606:4700::1111'].map(isForbiddenAddress)).toEqual([
      false,
      false,
      false,
    ]);
    expect(['100.64.0.1', '0.0.0.0', '::', 'fe80::1', '224.0.0.1'].map(isForbiddenAddress)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });

  it('refuses at connect a name that resolves to loopback now though it resolved to a public address when checked (DNS rebinding)', async () => {
    await expect(
      checkEndpointUrl('https://rebind.example/x', STRICT, publicResolver),
    ).resolves.toBeUndefined();
    const agent = createGuardedAgent({
      policy: STRICT,
      caCertificates: [ca],
      connectTimeoutMs: 5000,
      responseTimeoutMs: 5000,
      connectionsPerOrigin: 1,
      lookup: (_hostname, options, callback) =>
        options.all === true
          ? callback(null, [{ address: '127.0.0.1', family: 4 }])
          : callback(null, '127.0.0.1', 4),
    });
    const before = received.length;
    // The sender's own check would refuse the name first; the agent alone is what rebinding meets.
    const { request } = await import('undici');
    const failure = await request(`https://rebind.example:${port}/rebind`, {
      method: 'POST',
      dispatcher: agent,
      body: '{}',
    }).catch((error: unknown) => error);
    expect(String((failure as Error).message)).toMatch(/loopback/);
    expect(received.length).toBe(before);
    await agent.close();
  });
});

describe('webhook secrets', () => {
  it('seals a secret that opens only with the same key and subscription, and is never stored in clear', () => {
    const key = webhookSecretSealingKey(new Uint8Array(32).fill(7));
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const sealed = sealWebhookSecret(secret, key, 'S1');
    expect(sealed).not.toContain(secret.slice(6, 20));
    expect(unsealWebhookSecret(sealed, key, 'S1')).toBe(secret);
    expect(() => unsealWebhookSecret(sealed, key, 'S2')).toThrow();
    expect(() =>
      unsealWebhookSecret(sealed, webhookSecretSealingKey(new Uint8Array(32).fill(8)), 'S1'),
    ).toThrow();
    const [format, iv, tag, data] = sealed.split('.');
    const flipped = `${format}.${iv}.${tag}.${(data as string).startsWith('A') ? 'B' : 'A'}${(data as string).slice(1)}`;
    expect(() => unsealWebhookSecret(flipped, key, 'S1')).toThrow();
  });
});

describe('webhook retry schedule', () => {
  it('follows the Standard Webhooks schedule, up to 20 % later at random, for over 24 hours, then gives up', () => {
    const low = [1, 2, 3, 4, 5, 6, 7].map((failed) => nextRetryDelayMs(failed, null, () => 0));
    const high = [1, 2, 3, 4, 5, 6, 7].map((failed) => nextRetryDelayMs(failed, null, () => 1));
    expect(low).toEqual([5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(high).toEqual([6000, 360_000, 2_160_000, 8_640_000, 21_600_000, 43_200_000, 43_200_000]);
    expect((low as number[]).reduce((a, b) => a + b, 0)).toBeGreaterThan(24 * 3_600_000);
    expect(nextRetryDelayMs(8, null)).toBeNull();
  });

  it('never retries sooner than Retry-After, capped at 24 hours', () => {
    expect(nextRetryDelayMs(1, 60_000, () => 0.5)).toBe(60_000);
    expect(nextRetryDelayMs(1, 90 * 3_600_000, () => 0.5)).toBe(24 * 3_600_000);
    expect(parseRetryAfter('7')).toBe(7000);
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThan(50_000);
    expect(parseRetryAfter('soon')).toBeNull();
  });
});

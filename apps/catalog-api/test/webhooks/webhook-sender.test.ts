// The sender against a real HTTPS endpoint on loopback: what it sends (a Standard Webhooks message the
// receiver verifies with the standardwebhooks package) and how it classifies each answer, or none.
import type { ServerResponse } from 'node:http';
import { Webhook } from 'standardwebhooks';
import type { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedAgent } from '../../src/webhooks/delivery/guarded-dispatcher.ts';
import { createWebhookSender, type WebhookMessage } from '../../src/webhooks/delivery/send-webhook.ts';
import { generateWebhookSecret } from '../../src/webhooks/delivery/sign-webhook.ts';
import { type HttpsReceiver, startHttpsReceiver } from './support/https-receiver.ts';

const DEV = { allowPrivateNetworks: true };

let receiver: HttpsReceiver;
const agents: Agent[] = [];
beforeAll(async () => {
  receiver = await startHttpsReceiver();
});
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.destroy()));
});
afterAll(() => receiver.close());

function sender(
  options: { responseTimeoutMs?: number; trustLocalCa?: boolean; maxResponseBytes?: number } = {},
) {
  const agent = createGuardedAgent({
    policy: DEV,
    caCertificates: options.trustLocalCa === false ? [] : [receiver.ca],
    connectTimeoutMs: 30_000,
    responseTimeoutMs: options.responseTimeoutMs ?? 30_000,
    connectionsPerOrigin: 4,
  });
  agents.push(agent);
  return createWebhookSender({
    dispatcher: agent,
    policy: DEV,
    ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
  });
}

const message = (path: string, overrides: Partial<WebhookMessage> = {}): WebhookMessage => ({
  url: `https://localhost:${receiver.port}${path}`,
  messageId: 'msg_2Lh7ZXZ5P0QbU6Yw9nH3cK1aT4r',
  timestamp: new Date(),
  body: '{"type":"product.updated","data":{"id":"P1"}}',
  secrets: [generateWebhookSecret()],
  ...overrides,
});

describe('webhook sender: what it sends', () => {
  it('delivers a message the receiver verifies with Webhook.verify under either secret while a rotation overlaps', async () => {
    const [current, previous] = [generateWebhookSecret(), generateWebhookSecret()];
    const outcome = await sender().send(message('/signed', { secrets: [current, previous] }));
    expect(outcome).toMatchObject({ kind: 'delivered', statusCode: 204, error: null, retryAfterMs: null });
    expect(outcome.latencyMs).toBeGreaterThanOrEqual(0);
    const [got] = receiver.receivedAt('/signed');
    if (got === undefined) throw new Error('the receiver got nothing');
    expect(got.headers['webhook-id']).toBe('msg_2Lh7ZXZ5P0QbU6Yw9nH3cK1aT4r');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['user-agent']).toBe('catalog-webhooks/1');
    expect(got.headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [current, previous])
      expect(new Webhook(secret).verify(got.body, got.headers)).toEqual({
        type: 'product.updated',
        data: { id: 'P1' },
      });
    expect(() => new Webhook(generateWebhookSecret()).verify(got.body, got.headers)).toThrow();
  });

  it('refuses, without sending, a body above maxBodyBytes', async () => {
    const outcome = await sender().send(message('/too-large', { body: `"${'x'.repeat(65_536)}"` }));
    expect(outcome).toMatchObject({ kind: 'refused', statusCode: null });
    expect(outcome.error).toMatch(/over the 65536 allowed/);
    expect(receiver.receivedAt('/too-large')).toEqual([]);
  });

  it('refuses, without throwing or sending, an endpoint the policy refuses', async () => {
    const outcome = await sender().send(
      message('/plain', { url: `http://localhost:${receiver.port}/plain` }),
    );
    expect(outcome).toMatchObject({ kind: 'refused', statusCode: null });
    expect(outcome.error).toMatch(/must use https:/);
    expect(receiver.receivedAt('/plain')).toEqual([]);
  });
});

describe('webhook sender: how answers are classified', () => {
  it('410 is gone: the endpoint wants no more', async () => {
    receiver.answer('/gone', { status: 410 });
    expect(await sender().send(message('/gone'))).toMatchObject({ kind: 'gone', statusCode: 410 });
  });

  it('503 with Retry-After: 7 is a retry no sooner than 7000 ms', async () => {
    receiver.answer('/busy', { status: 503, headers: { 'retry-after': '7' } });
    expect(await sender().send(message('/busy'))).toMatchObject({
      kind: 'retry',
      statusCode: 503,
      retryAfterMs: 7000,
    });
  });

  it('429 and other 4xx are retries; a Retry-After HTTP date is read too', async () => {
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    receiver.answer('/slow-down', { status: 429, headers: { 'retry-after': inAMinute } });
    receiver.answer('/bad', { status: 400 });
    const slowDown = await sender().send(message('/slow-down'));
    expect(slowDown).toMatchObject({ kind: 'retry', statusCode: 429 });
    expect(slowDown.retryAfterMs).toBeGreaterThan(0);
    expect(slowDown.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(await sender().send(message('/bad'))).toMatchObject({
      kind: 'retry',
      statusCode: 400,
      retryAfterMs: null,
    });
  });

  it('a 302 is a retry, and its Location never receives anything: redirects are not followed', async () => {
    receiver.answer('/moved', {
      status: 302,
      headers: { location: `https://localhost:${receiver.port}/moved-to` },
    });
    const outcome = await sender().send(message('/moved'));
    expect(outcome).toMatchObject({ kind: 'retry', statusCode: 302 });
    expect(outcome.error).toMatch(/redirected \(302\).*redirects are not followed/);
    expect(receiver.receivedAt('/moved-to')).toEqual([]);
  });

  it('an endpoint that never answers is a retry once the response time-out passes', async () => {
    receiver.answer('/never', () => undefined);
    const outcome = await sender({ responseTimeoutMs: 200 }).send(message('/never'));
    expect(outcome).toMatchObject({ kind: 'retry', statusCode: null, retryAfterMs: null });
    expect(outcome.error).toMatch(/^timed out after [\d.]+ s waiting for the response$/);
  });

  it('a certificate the sender does not trust is a retry saying so, and nothing is sent', async () => {
    const outcome = await sender({ trustLocalCa: false }).send(message('/untrusted'));
    expect(outcome).toMatchObject({ kind: 'retry', statusCode: null });
    expect(outcome.error).toMatch(/certificate not trusted/);
    expect(receiver.receivedAt('/untrusted')).toEqual([]);
  });

  it('a name that does not resolve when the attempt connects is a retry (DNS may come back), not a refusal that gives the event up', async () => {
    const agent = createGuardedAgent({
      policy: DEV,
      caCertificates: [receiver.ca],
      connectTimeoutMs: 30_000,
      responseTimeoutMs: 30_000,
      connectionsPerOrigin: 1,
      lookup: (hostname, _options, callback) =>
        callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4),
    });
    agents.push(agent);
    const outcome = await createWebhookSender({ dispatcher: agent, policy: DEV }).send(
      message('/', { url: `https://gone-from-dns.example:${receiver.port}/unresolved` }),
    );
    expect(outcome).toMatchObject({
      kind: 'retry',
      statusCode: null,
      error: 'the host name does not resolve',
    });
    expect(receiver.receivedAt('/unresolved')).toEqual([]);
  });

  it('a closed port is a retry: connection refused', async () => {
    const closed = await sender().send(message('/', { url: 'https://127.0.0.1:1/closed' }));
    expect(closed).toMatchObject({ kind: 'retry', statusCode: null, error: 'connection refused' });
  });

  it('reads no more of a response body than maxResponseBytes: an endless body still ends the attempt', async () => {
    let written = 0;
    let closed: () => void = () => undefined;
    const responseClosed = new Promise<void>((resolve) => {
      closed = resolve;
    });
    receiver.answer('/endless', (response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!response.destroyed) {
          written += chunk.length;
          if (!response.write(chunk)) return;
        }
      };
      response.on('drain', pump);
      response.on('close', closed);
      pump();
    });
    const outcome = await sender({ maxResponseBytes: 1024 }).send(message('/endless'));
    expect(outcome).toMatchObject({ kind: 'delivered', statusCode: 200 });
    await responseClosed;
    // The body has no end: only a reader that stops and hangs up gets here. What was written
    // is bounded by the socket buffers, not by the body.
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});

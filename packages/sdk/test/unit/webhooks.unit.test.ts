// verifyWebhook and createSyncTrigger: the receiver's side of the service's webhooks. Messages are
// signed here with the standardwebhooks package, as the service signs them.
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { createSyncTrigger, verifyWebhook, WebhookVerificationError } from '../../src/index.ts';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
const BODY = JSON.stringify({
  type: 'product.changed',
  timestamp: '2026-11-28T18:00:00.000Z',
  data: { id: 'p-1', updatedAt: '2026-11-28T18:00:00.000Z' },
});

function signed(secrets: string[], at = new Date(), body = BODY): Record<string, string> {
  return {
    'webhook-id': 'msg_abc',
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign('msg_abc', at, body)).join(' '),
  };
}

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return (error as WebhookVerificationError).reason;
  }
  throw new Error('not refused');
};

describe('verifyWebhook', () => {
  it('returns the event of a message signed with the secret, from a Headers object or a record in any case', () => {
    const secret = newSecret();
    const headers = signed([secret]);
    expect(verifyWebhook({ headers, body: BODY }, secret).data.id).toBe('p-1');
    expect(
      verifyWebhook({ headers: new Headers(headers), body: new TextEncoder().encode(BODY) }, secret).type,
    ).toBe('product.changed');
    const shouting = Object.fromEntries(
      Object.entries(headers).map(([name, value]) => [name.toUpperCase(), [value]]),
    );
    expect(verifyWebhook({ headers: shouting, body: BODY }, secret).type).toBe('product.changed');
  });

  it('refuses another secret, a body altered by one byte, and a missing header', () => {
    const secret = newSecret();
    const headers = signed([secret]);
    expect(refusal(() => verifyWebhook({ headers, body: BODY }, newSecret()))).toBe('invalid-signature');
    expect(refusal(() => verifyWebhook({ headers, body: BODY.replace('p-1', 'p-2') }, secret))).toBe(
      'invalid-signature',
    );
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const { [name]: _, ...rest } = headers;
      expect(refusal(() => verifyWebhook({ headers: rest, body: BODY }, secret))).toBe('missing-header');
    }
    expect(refusal(() => verifyWebhook({ headers, body: BODY }, 'not-a-secret!'))).toBe('invalid-secret');
  });

  it('accepts either secret during a rotation: two signatures, or the receiver holding both', () => {
    const [old, fresh] = [newSecret(), newSecret()];
    const both = signed([fresh, old]);
    expect(verifyWebhook({ headers: both, body: BODY }, old).type).toBe('product.changed');
    expect(verifyWebhook({ headers: both, body: BODY }, fresh).type).toBe('product.changed');
    expect(verifyWebhook({ headers: signed([fresh]), body: BODY }, [old, fresh]).type).toBe(
      'product.changed',
    );
  });

  it('refuses a timestamp outside the tolerance either way, and accepts one inside it', () => {
    const secret = newSecret();
    const now = new Date('2026-11-28T18:00:00Z');
    const at = (seconds: number) => signed([secret], new Date(now.getTime() + seconds * 1000));
    const verify = (headers: Record<string, string>, toleranceSeconds?: number) =>
      verifyWebhook({ headers, body: BODY }, secret, {
        now: () => now,
        ...(toleranceSeconds === undefined ? {} : { toleranceSeconds }),
      });
    expect(verify(at(-299)).type).toBe('product.changed');
    expect(refusal(() => verify(at(-301)))).toBe('timestamp-out-of-tolerance');
    expect(refusal(() => verify(at(301)))).toBe('timestamp-out-of-tolerance');
    expect(verify(at(-600), 900).type).toBe('product.changed');
    expect(refusal(() => verify(at(-60), 30))).toBe('timestamp-out-of-tolerance');
  });

  it('refuses a correctly signed body that is not a catalog event', () => {
    const secret = newSecret();
    const body = '{"hello":"world"}';
    expect(refusal(() => verifyWebhook({ headers: signed([secret], new Date(), body), body }, secret))).toBe(
      'invalid-body',
    );
  });
});

describe('createSyncTrigger', () => {
  it('collapses triggers during a pass into exactly one more pass, and a failed pass does not stop the next', async () => {
    const passes: number[] = [];
    const errors: unknown[] = [];
    let release: () => void = () => {};
    let fail = true;
    const trigger = createSyncTrigger(
      async () => {
        passes.push(passes.length);
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        if (fail) {
          fail = false;
          throw new Error('network down');
        }
      },
      { onError: (error) => errors.push(error) },
    );
    trigger.trigger();
    trigger.trigger();
    trigger.trigger();
    trigger.trigger();
    const idle = trigger.idle();
    release();
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await idle;
    expect(passes).toEqual([0, 1]);
    expect(errors).toHaveLength(1);
    trigger.trigger();
    release();
    await trigger.idle();
    expect(passes).toEqual([0, 1, 2]);
  });
});

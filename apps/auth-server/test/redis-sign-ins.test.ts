import { connectRedis } from '@catalog/server-runtime';
import { RedisFaultProxy } from '@catalog/server-runtime/testing';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { RedisSignIns } from '../src/adapters/redis/redis-sign-ins.ts';
import { SignInStoreUnavailable } from '../src/errors/sign-in-store-unavailable.ts';
import { testKeyPrefix } from './support/redis-prefix.ts';

const INTERACTION_SECONDS = 900;

describe("oidc-provider's adapter on Redis (sign-ins in progress)", () => {
  const clients: Redis[] = [];
  let proxy: RedisFaultProxy | undefined;
  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await proxy?.close();
    proxy = undefined;
  });
  const connect = async (url = inject('redisUrl')) => {
    const client = await connectRedis(url);
    clients.push(client);
    return client;
  };
  const open = async (options: { prefix?: string; capacity?: number; now?: () => number } = {}) => {
    const client = await connect();
    const prefix = options.prefix ?? testKeyPrefix();
    const signIns = new RedisSignIns({
      client,
      keyPrefix: prefix,
      capacity: options.capacity ?? 100,
      ...(options.now === undefined ? {} : { now: options.now }),
    });
    return { client, prefix, signIns };
  };

  it('stores an artefact under the prefix for exactly its lifetime, and finds it from another instance', async () => {
    const { client, prefix, signIns } = await open();
    await signIns.adapter('Grant').upsert('g1', { accountId: 'admin-1', clientId: 'catalog-admin' }, 120);
    const ttl = await client.pttl(`${prefix}oidc:Grant:g1`);
    expect(ttl).toBeGreaterThan(110_000);
    expect(ttl).toBeLessThanOrEqual(120_000);
    const other = await open({ prefix });
    expect(await other.signIns.adapter('Grant').find('g1')).toEqual({
      accountId: 'admin-1',
      clientId: 'catalog-admin',
    });
    expect(await other.signIns.adapter('Session').find('g1')).toBeUndefined();
  });

  it('marks a code consumed for every instance, and never brings back one that has gone', async () => {
    const { client, prefix, signIns } = await open();
    const codes = signIns.adapter('AuthorizationCode');
    await codes.upsert('c1', { grantId: 'g1', accountId: 'admin-1' }, 60);
    await codes.consume('c1');
    const consumed = await (await open({ prefix })).signIns.adapter('AuthorizationCode').find('c1');
    expect(consumed?.consumed).toBeGreaterThan(Date.now() / 1000 - 60);
    await codes.consume('never-stored');
    expect(await client.exists(`${prefix}oidc:AuthorizationCode:never-stored`)).toBe(0);
  });

  it('finds a session by its uid', async () => {
    const { signIns } = await open();
    const sessions = signIns.adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'admin-1' }, 3600);
    expect(await sessions.findByUid('u1')).toMatchObject({ uid: 'u1', accountId: 'admin-1' });
    expect(await sessions.findByUid('u2')).toBeUndefined();
  });

  it("revokes every artefact issued under a grant, and nothing of another grant's", async () => {
    const { signIns } = await open();
    const codes = signIns.adapter('AuthorizationCode');
    const tokens = signIns.adapter('AccessToken');
    await codes.upsert('c1', { grantId: 'g1' }, 60);
    await tokens.upsert('t1', { grantId: 'g1' }, 600);
    await tokens.upsert('t2', { grantId: 'g2' }, 600);
    await tokens.revokeByGrantId('g1');
    expect(await codes.find('c1')).toBeUndefined();
    expect(await tokens.find('t1')).toBeUndefined();
    expect(await tokens.find('t2')).toEqual({ grantId: 'g2' });
  });

  it('destroys an artefact', async () => {
    const { signIns } = await open();
    const interactions = signIns.adapter('Interaction');
    await interactions.upsert('i1', { uid: 'i1' }, INTERACTION_SECONDS);
    await interactions.destroy('i1');
    expect(await interactions.find('i1')).toBeUndefined();
  });

  const openAll = async (signIns: RedisSignIns[], uids: string[]) => {
    for (const [index, uid] of uids.entries()) {
      await signIns[index % signIns.length]?.adapter('Interaction').upsert(uid, { uid }, INTERACTION_SECONDS);
    }
  };
  const heldOf = async (signIns: RedisSignIns, uids: string[]) => {
    const found = await Promise.all(uids.map((uid) => signIns.adapter('Interaction').find(uid)));
    return uids.filter((_, index) => found[index] !== undefined);
  };
  const uidsOf = (from: number, to: number) =>
    Array.from({ length: to - from }, (_, index) => `i${from + index}`);

  it('holds at most the capacity of open interactions in the whole deployment: a new one evicts the oldest, artefact and all', async () => {
    const one = await open({ capacity: 3 });
    const other = await open({ prefix: one.prefix, capacity: 3 });
    await openAll([one.signIns, other.signIns], uidsOf(0, 40));
    expect(await heldOf(one.signIns, uidsOf(0, 40))).toEqual(['i37', 'i38', 'i39']);
    const stored = await one.client.keys(`${one.prefix}oidc:Interaction:*`);
    expect(stored.sort()).toEqual(['i37', 'i38', 'i39'].map((uid) => `${one.prefix}oidc:Interaction:${uid}`));
    expect(await one.client.zcard(`${one.prefix}oidc:interactions:open`)).toBe(3);
  });

  it('never evicts a kept interaction (password being checked or accepted), whatever number of open ones follow, on any instance', async () => {
    const one = await open({ capacity: 3 });
    const other = await open({ prefix: one.prefix, capacity: 3 });
    await openAll([one.signIns], ['admin']);
    expect(await other.signIns.keep('admin')).not.toBeTypeOf('string');
    await openAll([one.signIns, other.signIns], uidsOf(0, 20));
    // interactionFinished saves it again: it stays kept.
    await one.signIns
      .adapter('Interaction')
      .upsert('admin', { uid: 'admin', result: { login: { accountId: 'admin-1' } } }, INTERACTION_SECONDS);
    await openAll([one.signIns, other.signIns], uidsOf(20, 40));
    expect(await other.signIns.adapter('Interaction').find('admin')).toEqual({
      uid: 'admin',
      result: { login: { accountId: 'admin-1' } },
    });
    expect(await heldOf(one.signIns, uidsOf(0, 40))).toEqual(['i37', 'i38', 'i39']);
    await one.signIns.adapter('Interaction').destroy('admin');
    expect(await one.client.zcard(`${one.prefix}oidc:interactions:kept`)).toBe(0);
  });

  it('makes a released interaction (password refused) evictable again, as the newest open one', async () => {
    const { signIns } = await open({ capacity: 2 });
    await openAll([signIns], ['i0']);
    const kept = await signIns.keep('i0');
    if (typeof kept === 'string') throw new Error(`not kept: ${kept}`);
    await openAll([signIns], ['i1', 'i2']);
    await kept.release();
    await openAll([signIns], ['i3']);
    expect(await heldOf(signIns, uidsOf(0, 4))).toEqual(['i0', 'i3']);
    await openAll([signIns], ['i4']);
    expect(await heldOf(signIns, uidsOf(0, 5))).toEqual(['i3', 'i4']);
  });

  it('keeps exactly up to the capacity when instances keep at the same moment, then refuses (full); answers gone for an evicted one', async () => {
    const clock = { now: Date.now() };
    const now = () => clock.now;
    const one = await open({ capacity: 5, now });
    const other = await open({ prefix: one.prefix, capacity: 5, now });
    const keep = (uids: string[]) =>
      Promise.all(uids.map((uid, index) => (index % 2 === 0 ? one : other).signIns.keep(uid)));
    await openAll([one.signIns, other.signIns], uidsOf(0, 5));
    expect((await keep(uidsOf(0, 3))).every((kept) => typeof kept !== 'string')).toBe(true);
    await openAll([one.signIns, other.signIns], uidsOf(5, 10));
    const contended = await keep(uidsOf(5, 10));
    expect(contended.filter((kept) => typeof kept !== 'string')).toHaveLength(2);
    expect(contended.filter((kept) => kept === 'full')).toHaveLength(3);
    expect(await one.client.zcard(`${one.prefix}oidc:interactions:kept`)).toBe(5);
    expect(await one.signIns.keep('i3')).toBe('gone'); // evicted by i5..i9
    expect(await one.signIns.keep('never-stored')).toBe('gone');

    // Once the kept ones' time is past, their places are free again.
    clock.now += INTERACTION_SECONDS * 1000;
    await openAll([one.signIns], ['late']);
    expect(await other.signIns.keep('late')).not.toBeTypeOf('string');
  });

  it('rejects with SignInStoreUnavailable (503 temporarily_unavailable) while Redis cannot answer', async () => {
    proxy = await RedisFaultProxy.start(inject('redisUrl'));
    const signIns = new RedisSignIns({
      client: await connect(proxy.url),
      keyPrefix: testKeyPrefix(),
      capacity: 5,
    });
    const interactions = signIns.adapter('Interaction');
    await interactions.upsert('i1', { uid: 'i1' }, INTERACTION_SECONDS);
    proxy.cut();
    for (const call of [
      () => interactions.find('i1'),
      () => interactions.upsert('i2', { uid: 'i2' }, INTERACTION_SECONDS),
      () => interactions.destroy('i1'),
      () => signIns.keep('i1'),
    ]) {
      const failure = await call().then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(SignInStoreUnavailable);
      expect(failure).toMatchObject({ status: 503, error: 'temporarily_unavailable', expose: true });
    }
    proxy.restore();
    await expect
      .poll(() => interactions.find('i1').catch(() => 'unavailable'), { timeout: 15_000 })
      .toEqual({
        uid: 'i1',
      });
  });
});

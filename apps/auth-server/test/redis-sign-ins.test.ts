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

  it('refuses a new sign-in past the capacity of the whole deployment, evicting none, and gives room as interactions end', async () => {
    const clock = { now: Date.now() };
    const now = () => clock.now;
    const one = await open({ capacity: 3, now });
    const other = await open({ prefix: one.prefix, capacity: 3, now });
    const instances = [one.signIns, other.signIns];
    for (let uid = 0; uid < 3; uid += 1) {
      const signIns = instances[uid % 2];
      const room = await signIns?.reserve();
      expect(room).toBeDefined();
      await signIns?.adapter('Interaction').upsert(`i${uid}`, { uid: `i${uid}` }, INTERACTION_SECONDS);
      room?.release();
    }
    expect(await one.signIns.reserve()).toBeUndefined();
    expect(await other.signIns.reserve()).toBeUndefined();
    for (let uid = 0; uid < 3; uid += 1) {
      expect(await other.signIns.adapter('Interaction').find(`i${uid}`)).toEqual({ uid: `i${uid}` });
    }

    await one.signIns.adapter('Interaction').destroy('i0');
    const room = await other.signIns.reserve();
    expect(room).toBeDefined();
    expect(await one.signIns.reserve()).toBeUndefined(); // held by the reservation until released
    room?.release();
    await expect.poll(async () => (await one.signIns.reserve()) !== undefined).toBe(true);

    // Once the interactions' time is past, their places are free again.
    clock.now += INTERACTION_SECONDS * 1000;
    const rooms = await Promise.all([1, 2, 3].map(() => one.signIns.reserve()));
    expect(rooms.every((each) => each !== undefined)).toBe(true);
    expect(await other.signIns.reserve()).toBeUndefined();
  });

  it('gives room to exactly the capacity when instances reserve at the same moment', async () => {
    const one = await open({ capacity: 5 });
    const other = await open({ prefix: one.prefix, capacity: 5 });
    const rooms = await Promise.all(
      Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? one : other).signIns.reserve()),
    );
    expect(rooms.filter((room) => room !== undefined)).toHaveLength(5);
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
      () => signIns.reserve(),
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

import { describe, expect, it } from 'vitest';
import { SignInStore } from '../src/oidc/sign-in-store.ts';

const INTERACTION_MS = 900_000;

describe('sign-in store (oidc-provider memory adapter storage)', () => {
  it('gives no room past its capacity instead of evicting, and room again once interactions expire', () => {
    let now = 1_000_000;
    const store = new SignInStore({ capacity: 3, now: () => now });
    for (let uid = 0; uid < 3; uid += 1) {
      const room = store.reserveSignIn();
      expect(room).toBeDefined();
      store.set(`Interaction:${uid}`, { uid }, { maxAge: INTERACTION_MS });
      room?.release();
    }
    expect(store.reserveSignIn()).toBeUndefined();
    for (let uid = 0; uid < 3; uid += 1) expect(store.get(`Interaction:${uid}`)).toEqual({ uid });

    now += INTERACTION_MS;
    expect(store.get('Interaction:0')).toBeUndefined();
    const rooms = [store.reserveSignIn(), store.reserveSignIn(), store.reserveSignIn()];
    expect(rooms.every((room) => room !== undefined)).toBe(true);
    expect(store.reserveSignIn()).toBeUndefined();
  });

  it('counts reservations still in flight, and only interactions (sessions, grants, codes are not capped)', () => {
    const store = new SignInStore({ capacity: 2 });
    const first = store.reserveSignIn();
    const second = store.reserveSignIn();
    expect(store.reserveSignIn()).toBeUndefined();
    first?.release();
    first?.release(); // a second release frees nothing more
    store.set('Session:a', {}, { maxAge: 1000 });
    store.set('Grant:a', {}, { maxAge: 1000 });
    expect(store.reserveSignIn()).toBeDefined();
    expect(store.reserveSignIn()).toBeUndefined();
    second?.release();
  });
});

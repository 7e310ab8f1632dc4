import { describe, expect, it } from 'vitest';
import { SignInStore } from '../src/oidc/sign-in-store.ts';

const INTERACTION_MS = 900_000;

const openInteractions = (store: SignInStore, uids: number[]) => {
  for (const uid of uids) store.set(`Interaction:${uid}`, { uid }, { maxAge: INTERACTION_MS });
};
const held = (store: SignInStore, uids: number[]) =>
  uids.filter((uid) => store.get(`Interaction:${uid}`) !== undefined);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, index) => from + index);

describe('sign-in store (oidc-provider memory adapter storage)', () => {
  it('holds at most its capacity of open interactions: a new one evicts the oldest, never is refused', () => {
    const store = new SignInStore({ capacity: 3 });
    openInteractions(store, range(0, 30));
    expect(held(store, range(0, 30))).toEqual([27, 28, 29]);
  });

  it('never evicts a kept interaction (password being checked or accepted), whatever number of open ones follow', () => {
    const store = new SignInStore({ capacity: 3 });
    openInteractions(store, [0]);
    const kept = store.keepInteraction('0');
    expect(kept).not.toBe('full');
    openInteractions(store, range(1, 100));
    expect(held(store, [0])).toEqual([0]);
    store.set('Interaction:0', { uid: 0, result: 'login' }, { maxAge: INTERACTION_MS }); // interactionFinished
    openInteractions(store, range(100, 200));
    expect(store.get('Interaction:0')).toEqual({ uid: 0, result: 'login' });
    expect(held(store, range(1, 200))).toHaveLength(3);
  });

  it('makes a released interaction (password refused) evictable again, as the newest open one', () => {
    const store = new SignInStore({ capacity: 2 });
    openInteractions(store, [0]);
    const kept = store.keepInteraction('0');
    openInteractions(store, [1, 2]);
    if (typeof kept === 'string') throw new Error(`not kept: ${kept}`);
    kept.release();
    openInteractions(store, [3]);
    expect(held(store, [0, 1, 2, 3])).toEqual([0, 3]);
    openInteractions(store, [4]);
    expect(held(store, [0, 1, 2, 3, 4])).toEqual([3, 4]);
  });

  it('refuses to keep past its capacity of kept interactions, and keeps again once they expire', () => {
    let now = 1_000_000;
    const store = new SignInStore({ capacity: 2, now: () => now });
    openInteractions(store, [0, 1]);
    expect(store.keepInteraction('0')).not.toBe('full');
    expect(store.keepInteraction('1')).not.toBe('full');
    openInteractions(store, [2]);
    expect(store.keepInteraction('2')).toBe('full');
    expect(store.keepInteraction('0')).not.toBe('full'); // already kept

    now += INTERACTION_MS;
    openInteractions(store, [3]);
    expect(store.keepInteraction('3')).not.toBe('full');
  });

  it('answers gone for an interaction evicted or never stored', () => {
    const store = new SignInStore({ capacity: 1 });
    openInteractions(store, [0, 1]);
    expect(store.keepInteraction('0')).toBe('gone');
    expect(store.keepInteraction('never')).toBe('gone');
  });

  it('counts only interactions: sessions, grants and codes are neither capped nor evicted', () => {
    const store = new SignInStore({ capacity: 1 });
    store.set('Session:a', { a: 1 }, { maxAge: 1000 });
    store.set('Grant:a', { a: 1 }, { maxAge: 1000 });
    openInteractions(store, range(0, 10));
    expect(store.get('Session:a')).toEqual({ a: 1 });
    expect(store.get('Grant:a')).toEqual({ a: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { canonicalEmail } from '../../src/index.ts';

describe('canonicalEmail', () => {
  it('is its own canonical form: canonicalEmail(canonicalEmail(c)) equals canonicalEmail(c) for every code point', () => {
    const unstable: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      const once = canonicalEmail(`a${String.fromCodePoint(codePoint)}@example.com`);
      if (canonicalEmail(once) !== once) unstable.push(codePoint.toString(16));
    }
    expect(unstable).toEqual([]);
  });

  it('holds no ASCII capital, so the embedded engine NOCASE column compares canonical forms exactly', () => {
    const capitals: string[] = [];
    for (let codePoint = 0; codePoint <= 0x10ffff; codePoint += 1) {
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
      if (/[A-Z]/.test(canonicalEmail(String.fromCodePoint(codePoint))))
        capitals.push(codePoint.toString(16));
    }
    expect(capitals).toEqual([]);
  });
});

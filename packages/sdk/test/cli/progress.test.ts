// The terminal progress bar, rendered by cli-progress into a stream that says it is a terminal.
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../src/cli/progress.ts';

function terminal() {
  const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 120 });
  let written = '';
  stream.on('data', (chunk: Buffer) => {
    written += chunk;
  });
  return { stream, text: () => stripVTControlCharacters(written) };
}

function pass(options: { resumed: boolean }, pages: [number, number | undefined][]) {
  const { stream, text } = terminal();
  const progress = createProgress(stream, options);
  pages.forEach(([products, total], index) => {
    progress.page({ pages: index + 1, products, total });
  });
  progress.stop();
  return text();
}

describe('catalog-sync progress bar', () => {
  it('a pass from the beginning with an exact total ends at 100 % and never shows 0/0', () => {
    const shown = pass({ resumed: false }, [
      [100, 450],
      [200, 450],
      [450, 450],
    ]);
    expect(shown).toContain('100% 450/450 products');
    expect(shown).not.toContain('0/0');
  });

  it('a resumed pass shows a count since the saved cursor, no percentage of a total it cannot know', () => {
    const shown = pass({ resumed: true }, [
      [100, 450],
      [200, 450],
    ]);
    expect(shown).toContain('200 products, page 2 since the saved cursor');
    expect(shown).not.toMatch(/%|\/450/);
  });

  it('a total at the reported cap (a lower bound) or absent is shown as a count', () => {
    expect(pass({ resumed: false }, [[100, 10_000]])).toMatch(/^[^%]*100 products, page 1[^%]*$/);
    expect(pass({ resumed: false }, [[7, undefined]])).toContain('7 products, page 1');
  });
});

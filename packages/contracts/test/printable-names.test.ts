import { describe, expect, it } from 'vitest';
import { catalogApiDocument } from '../src/index.ts';

const { schemas } = catalogApiDocument.components;
const printable = new RegExp(schemas.PrintableName.pattern, 'u');

describe('PrintableName: brand and channel names are printable words separated by single spaces', () => {
  it.each([
    ['U+0000 NUL', '\u0000'],
    ['U+0007 BEL', '\u0007'],
    ['U+0009 tab', '\t'],
    ['U+000A line feed', '\n'],
    ['U+000D carriage return', '\r'],
    ['U+001B ESC', '\u001b'],
    ['U+007F DEL', '\u007f'],
    ['U+0085 next line', '\u0085'],
    ['U+00A0 no-break space', '\u00a0'],
    ['U+00AD soft hyphen', '\u00ad'],
    ['U+200B zero-width space', '\u200b'],
    ['U+200D zero-width joiner', '\u200d'],
    ['U+200E left-to-right mark', '\u200e'],
    ['U+202E right-to-left override', '\u202e'],
    ['U+2028 line separator', '\u2028'],
    ['U+2029 paragraph separator', '\u2029'],
    ['U+202F narrow no-break space', '\u202f'],
    ['U+3000 ideographic space', '\u3000'],
    ['U+FEFF byte-order mark', '\ufeff'],
    ['U+E000 private use', '\ue000'],
    ['a lone surrogate', '\ud800'],
  ])('refuses %s anywhere in a name', (_what, character) => {
    for (const name of [`${character}Acme`, `Acme${character}Tools`, `Acme${character}`, character])
      expect(printable.test(name), JSON.stringify(name)).toBe(false);
  });

  it('refuses blank names, a space at either end and runs of spaces', () => {
    for (const name of ['', ' ', '   ', ' Acme', 'Acme ', 'Acme  Tools'])
      expect(printable.test(name), JSON.stringify(name)).toBe(false);
  });

  it('accepts names in any script, with punctuation, symbols and emoji', () => {
    for (const name of [
      'Acme',
      'Acme Fixings',
      'Zürich Äpfel & Söhne',
      '北京 工具',
      'Café (trade) — Øst',
      'A+B 🔧',
    ])
      expect(printable.test(name), name).toBe(true);
  });

  it("is the rule of a product's brandName too, which may also be empty (no brand)", () => {
    const brandName = schemas.AdminProduct.properties.brandName.pattern;
    const body = schemas.PrintableName.pattern.slice(1, -1);
    expect(brandName).toBe(`^(?:${body})?$`);
  });

  it('is the rule of the admin brand name and of the web channel name', () => {
    expect(schemas.AdminBrand.properties.name.$ref).toBe('#/components/schemas/PrintableName');
    expect(schemas.WebChannel.properties.name.$ref).toBe('#/components/schemas/PrintableName');
  });
});

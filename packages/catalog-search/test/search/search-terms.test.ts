import { identifierKey } from '@catalog/store';
import { describe, expect, it } from 'vitest';
import {
  matchAllTerms,
  matchAllTermsIn,
  matchProductName,
  matchProductText,
  searchTerms,
} from '../../src/query/search-terms.ts';

describe('q terms', () => {
  it('folds case and accents and splits on whitespace', () => {
    expect(searchTerms('  Crème   BRÛLÉE\tTorch ')).toEqual(['creme', 'brulee', 'torch']);
  });

  it('drops terms without a letter or digit, which no token can match', () => {
    expect(searchTerms('-- drill ... / 18v')).toEqual(['drill', '18v']);
  });

  it('makes every term a prefix phrase, AND-ed, with quotes escaped', () => {
    expect(matchAllTerms(['ab-100', 'say"xy'])).toBe('"ab-100"* AND "say""xy"*');
    expect(matchAllTermsIn('name', ['drill'])).toBe('{name} : ("drill"*)');
  });

  it('restricts live product matches to the live text columns, and archived ones to every column', () => {
    expect(matchProductText(['drill'], false)).toBe('{name description product_code erp_code} : ("drill"*)');
    expect(matchProductText(['drill'], true)).toBe('("drill"*)');
    expect(matchProductName(['drill'], false)).toBe('{name} : ("drill"*)');
    expect(matchProductName(['drill'], true)).toBe('{name archived_name} : ("drill"*)');
  });

  it('matches a one-character last token after another token whole, not as a prefix', () => {
    expect(matchAllTerms(['ft018943/1', 'dr.18', 'x'])).toBe('"ft018943/1" AND "dr.18"* AND "x"*');
  });
});

describe('identifier keys', () => {
  it('ignore case, accents and runs of spaces but keep dashes, dots and inner spaces', () => {
    expect(identifierKey('  Äb-12.3   X ')).toBe('ab-12.3 x');
    expect(identifierKey('AB12.3X')).not.toBe(identifierKey('AB-12.3 X'));
  });
});

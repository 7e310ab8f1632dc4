import { describe, expect, it } from 'vitest';
import {
  CLIENT_DESCRIPTION_MAX_LENGTH,
  CLIENT_ID_PATTERN,
  CLIENT_NAME_MAX_LENGTH,
  CLIENT_NAME_MIN_LENGTH,
  CLIENT_NAME_PATTERN,
  CLIENT_SCOPES_MIN,
  EXPIRES_IN_DAYS_MAX,
  EXPIRES_IN_DAYS_MIN,
  LIST_LIMIT_DEFAULT,
  OFFSET_WINDOW,
  Q_MAX_LENGTH,
  REPORTED_TOTAL_CAP,
  SEARCH_FROM_DEFAULT,
  SEARCH_SIZE_DEFAULT,
  SEARCH_SIZE_MAX,
  SYNC_OVERLAP_SECONDS,
} from '../src/index.ts';

describe('spec 8: limits read off the document', () => {
  it('search paging: size default 20 max 100, from default 0, q at most 256, total capped at 10000', () => {
    expect([SEARCH_SIZE_DEFAULT, SEARCH_SIZE_MAX, SEARCH_FROM_DEFAULT, Q_MAX_LENGTH]).toEqual([
      20, 100, 0, 256,
    ]);
    expect([REPORTED_TOTAL_CAP, OFFSET_WINDOW, SYNC_OVERLAP_SECONDS]).toEqual([10000, 10000, 900]);
    expect(LIST_LIMIT_DEFAULT).toBe(20);
  });

  it('clients: name 3-100, description 500, expiresInDays 1-365, at least one scope', () => {
    expect([CLIENT_NAME_MIN_LENGTH, CLIENT_NAME_MAX_LENGTH, CLIENT_DESCRIPTION_MAX_LENGTH]).toEqual([
      3, 100, 500,
    ]);
    expect([EXPIRES_IN_DAYS_MIN, EXPIRES_IN_DAYS_MAX, CLIENT_SCOPES_MIN]).toEqual([1, 365, 1]);
    expect(CLIENT_ID_PATTERN.test('a'.repeat(26))).toBe(true);
    expect(CLIENT_ID_PATTERN.test('a'.repeat(25))).toBe(false);
    expect(CLIENT_NAME_PATTERN.test('ERP sync_2-prod')).toBe(true);
    expect(CLIENT_NAME_PATTERN.test('bad!name')).toBe(false);
  });
});

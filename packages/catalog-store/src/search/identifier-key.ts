import { foldText } from './fold-text.ts';

/**
 * The form productCode and erpCode are indexed and probed under: case, accents and runs of
 * whitespace do not matter, but dashes, dots and inner spaces do ("AB-1.2 X" stays distinct
 * from "AB12X"), so an exact identifier stays exact.
 */
export function identifierKey(code: string): string {
  return foldText(code).trim().replace(/\s+/g, ' ');
}

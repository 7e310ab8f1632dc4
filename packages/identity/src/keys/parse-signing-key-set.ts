import { type SigningKeySet, signingKeySetSchema } from './signing-key-set.ts';
import { SigningKeySetError } from './signing-key-set-errors.ts';

/** The set a stored JSON text holds, validated; `place` names where it was read, for the error. */
export function parseSigningKeySet(place: string, text: string): SigningKeySet {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new SigningKeySetError(place, 'is not valid JSON', { cause });
  }
  const parsed = signingKeySetSchema.safeParse(json);
  if (!parsed.success) {
    throw new SigningKeySetError(place, parsed.error.issues.map((issue) => issue.message).join('; '));
  }
  return parsed.data;
}

import type { AuditContext } from '@catalog/store';
import { FileSigningKeyStore } from '../adapters/file-signing-keys/file-signing-key-store.ts';
import { AdminOperationError } from '../errors/admin-errors.ts';
import type { AuditTrail } from '../ports/audit-trail.ts';
import type { SigningKeyStore } from '../ports/signing-key-store.ts';
import { generateSigningKey } from './generate-signing-key.ts';
import { RETIRED_KEY_RETENTION_SECONDS, STAGED_KEY_MIN_PUBLISH_SECONDS } from './key-retention.ts';
import { isPastRetention } from './published-keys.ts';
import { rotationEvent } from './signing-key-events.ts';
import { type SigningKey, type SigningKeySet, signingKeysFile } from './signing-key-set.ts';
import { SigningKeySetError } from './signing-key-set-errors.ts';

/**
 * Step 2 was asked for before every JWKS cache could have seen the staged key. An admin operation's
 * refusal with no contract code of its own, so internal (500) should a route ever offer the rotation.
 */
export class RotationTooEarlyError extends AdminOperationError {
  readonly waitSeconds: number;
  constructor(kid: string, waitSeconds: number) {
    super(
      `key ${kid} was staged less than ${STAGED_KEY_MIN_PUBLISH_SECONDS} s ago; run the rotation again in ${waitSeconds} s (or pass --force when no resource server caches the JWKS)`,
    );
    this.waitSeconds = waitSeconds;
  }
}

export type RotationReport =
  | {
      readonly step: 'staged';
      readonly stagedKid: string;
      readonly promoteAfter: string;
      readonly pruned: string[];
    }
  | {
      readonly step: 'promoted';
      readonly activeKid: string;
      readonly retiredKid: string;
      readonly retiredUntil: string;
      readonly pruned: string[];
    };

const withoutExpired = (keys: SigningKey[], now: Date) => keys.filter((key) => !isPastRetention(key, now));

function stage(set: SigningKeySet, staged: SigningKey, now: Date): [SigningKeySet, RotationReport] {
  const keys = withoutExpired(set.keys, now);
  const promoteAfter = new Date(now.getTime() + STAGED_KEY_MIN_PUBLISH_SECONDS * 1000).toISOString();
  const pruned = set.keys.filter((key) => !keys.includes(key)).map((key) => key.kid);
  return [
    { format: 1, keys: [...keys, staged] },
    { step: 'staged', stagedKid: staged.kid, promoteAfter, pruned },
  ];
}

function promote(set: SigningKeySet, staged: SigningKey, now: Date): [SigningKeySet, RotationReport] {
  const at = now.toISOString();
  const previous = set.keys.find((key) => key.status === 'active');
  if (previous === undefined) throw new Error('no active key');
  const keys = withoutExpired(set.keys, now).map((key): SigningKey => {
    if (key === staged) return { ...key, status: 'active', activatedAt: at };
    if (key === previous) return { ...key, status: 'retired', retiredAt: at };
    return key;
  });
  const pruned = set.keys.filter((key) => isPastRetention(key, now)).map((key) => key.kid);
  const retiredUntil = new Date(now.getTime() + RETIRED_KEY_RETENTION_SECONDS * 1000);
  return [
    { format: 1, keys },
    {
      step: 'promoted',
      activeKid: staged.kid,
      retiredKid: previous.kid,
      retiredUntil: retiredUntil.toISOString(),
      pruned,
    },
  ];
}

/** Where the rotated keys live: a deployment's key store, or the embedded default's file under `dataDir`. */
export type RotatedKeys = { readonly keys: SigningKeyStore } | { readonly dataDir: string };

/**
 * The two-step rotation, one step per call. Step 1 stages a new key: published at once, not
 * signing. Step 2, once every JWKS cache has had time to see it, makes it the signing key and
 * retires the old one, which stays published until the tokens it signed have expired. Either step
 * drops retired keys past that period. The step is written as a compare-and-set on the set it was
 * computed from: when another rotation came first, SigningKeySetChangedError and nothing written.
 * Every running token server, on every machine sharing the keys, reloads the new set by itself
 * within about a second. With `audit`, each step is recorded ('signing-key.stage',
 * 'signing-key.promote') once the new set is in place: the token servers only watch the keys, so
 * whoever rotates records it.
 */
export async function rotateSigningKeys(
  options: RotatedKeys & {
    readonly now?: Date;
    readonly force?: boolean;
    readonly audit?: { readonly trail: AuditTrail; readonly context: AuditContext };
  },
): Promise<RotationReport> {
  const now = options.now ?? new Date();
  const keys = 'keys' in options ? options.keys : new FileSigningKeyStore(signingKeysFile(options.dataDir));
  const stored = await keys.read();
  if (stored === undefined)
    throw new SigningKeySetError(keys.place, 'does not exist yet; start the token server once first');
  const { set } = stored;
  const staged = set.keys.find((key) => key.status === 'staged');
  let next: [SigningKeySet, RotationReport];
  if (staged === undefined) {
    next = stage(set, await generateSigningKey('staged', now), now);
  } else {
    const publishedFor = (now.getTime() - Date.parse(staged.createdAt)) / 1000;
    if (publishedFor < STAGED_KEY_MIN_PUBLISH_SECONDS && options.force !== true) {
      throw new RotationTooEarlyError(staged.kid, Math.ceil(STAGED_KEY_MIN_PUBLISH_SECONDS - publishedFor));
    }
    next = promote(set, staged, now);
  }
  await keys.replace(stored, next[0]);
  const report = next[1];
  if (options.audit !== undefined) {
    try {
      await options.audit.trail.record(rotationEvent(options.audit.context, report));
    } catch (error) {
      // The rotation stands (the servers are already loading it); the operator must know it is unrecorded.
      const step = report.step === 'staged' ? `staged ${report.stagedKid}` : `promoted ${report.activeKid}`;
      throw new AdminOperationError(
        `the keys were rotated (${step}) but the audit event could not be recorded: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
  return report;
}

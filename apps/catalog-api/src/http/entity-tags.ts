import { createHash } from 'node:crypto';
import { ServiceError } from '@catalog/contracts';
import { type ExpectedVersion, PreconditionFailedError } from '@catalog/store';
import type { RouteContext } from './contract-route.ts';

/**
 * The record an ETag names: its kind and key. The tag carries a digest of both beside the version,
 * so a tag copied from one record never matches another that happens to be at the same version.
 */
export interface TagTarget {
  readonly kind: 'product' | 'brand' | 'client' | 'web-channels' | 'webhook-subscription';
  readonly key: string;
}

const TAG = /^"(\d{1,15})\.([0-9a-f]{12})"$/;

function digestOf(target: TagTarget): string {
  return createHash('sha256').update(`${target.kind}\u0000${target.key}`).digest('hex').slice(0, 12);
}

/**
 * The strong ETag of a record at `version`: the same on every instance and engine, since it is made
 * of the stored version and the record's key only.
 */
export function entityTag(target: TagTarget, version: number): string {
  return `"${version}.${digestOf(target)}"`;
}

/** Whether the writes to this kind of record refuse to run without If-Match (428). */
export type PreconditionRule = 'required' | 'optional';

/**
 * What the request's If-Match asks the write to be made against: undefined when it is absent or
 * `*` (the record as it is; a missing record is then the write's 404, RFC 9110 §13.2.1), else the
 * versions its tags name for this record. A tag in any other form, a weak one or one of another
 * record matches nothing (412), as strong comparison requires.
 */
export function expectedVersionOf(
  ctx: RouteContext,
  target: TagTarget,
  rule: PreconditionRule,
): ExpectedVersion {
  const header = ctx.get('If-Match').trim();
  if (header === '') {
    if (rule === 'required') {
      throw new ServiceError(
        428,
        'PRECONDITION_REQUIRED',
        'Send If-Match with the ETag of the read your change starts from (or * to overwrite what is stored)',
      );
    }
    return undefined;
  }
  if (header === '*') return undefined;
  const digest = digestOf(target);
  const versions: number[] = [];
  for (const tag of header.split(',')) {
    const match = TAG.exec(tag.trim());
    if (match !== null && match[2] === digest) versions.push(Number(match[1]));
  }
  return versions;
}

/** The version a written record's ETag is made of (every admin record carries one). */
export const recordVersion = (record: { readonly version: number }): number => record.version;

/** Sends the record's ETag with a response that shows it. */
export function sendEntityTag(ctx: RouteContext, target: TagTarget, version: number): void {
  ctx.set('ETag', entityTag(target, version));
}

/**
 * Runs a write under the request's If-Match and sends the written record's ETag (when `versionOf`
 * knows it); a write refused as stale answers 412 with the current ETag, so the caller knows what a
 * new read will return.
 */
export async function writeIfMatch<T>(
  ctx: RouteContext,
  target: TagTarget,
  rule: PreconditionRule,
  write: (expected: ExpectedVersion) => Promise<T>,
  versionOf?: (written: T) => number,
): Promise<T> {
  const expected = expectedVersionOf(ctx, target, rule);
  try {
    const written = await write(expected);
    if (versionOf !== undefined) sendEntityTag(ctx, target, versionOf(written));
    return written;
  } catch (error) {
    if (error instanceof PreconditionFailedError) sendEntityTag(ctx, target, error.currentVersion);
    throw error;
  }
}

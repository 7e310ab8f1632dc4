import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';

/** A key prefix of its own for one test, under the run's (whose keys are removed after the run). */
export function testKeyPrefix(): string {
  return `${inject('redisRunPrefix')}${randomBytes(4).toString('hex')}:`;
}

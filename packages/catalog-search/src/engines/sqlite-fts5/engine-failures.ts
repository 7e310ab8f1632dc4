/** Raised inside a search worker; the pool turns it into the matching contract error. */
export class IdentifierProbeFailure extends Error {
  constructor(cause: unknown) {
    super('identifier probe failed', { cause });
    this.name = 'IdentifierProbeFailure';
  }
}

export class EngineFailure extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'EngineFailure';
  }
}

export type FailureKind = 'identifier' | 'engine';

export function failureKind(error: unknown): FailureKind {
  return error instanceof IdentifierProbeFailure ? 'identifier' : 'engine';
}

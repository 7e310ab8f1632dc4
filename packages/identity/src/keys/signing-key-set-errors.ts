// Plain internal errors, not ServiceErrors: they are about where the deployment keeps its keys and are
// raised at a token server's start (which they stop), in its key watch (which logs them and keeps the
// keys it has) or under `pnpm admin keys rotate`, never in answer to an HTTP request; one that reached
// an error middleware would be its generic 500 all the same.

/** The stored key set exists but cannot be used; the server must not start with other keys. */
export class SigningKeySetError extends Error {
  constructor(place: string, problem: string, options?: ErrorOptions) {
    super(`${place}: ${problem}`, options);
    this.name = 'SigningKeySetError';
  }
}

/**
 * A replacement found the set changed since it was read, or being changed right then: another
 * rotation came first. Nothing was written, so neither rotation is lost.
 */
export class SigningKeySetChangedError extends Error {
  constructor(place: string) {
    super(
      `${place}: the signing keys changed while this rotation ran (another rotation came first); nothing was written: run it again to work on the keys as they are now`,
    );
    this.name = 'SigningKeySetChangedError';
  }
}

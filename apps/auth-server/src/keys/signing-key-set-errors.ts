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

/** The copy did not start: the source or the target is not one it may copy from or into. Nothing was written. */
export class CopyRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CopyRefusedError';
  }
}

/** Wrong arguments or configuration: exit code 2, as opposed to a failed operation (1). */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

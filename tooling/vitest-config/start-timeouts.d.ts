/** The longest a test waits for one server process to say it listens. */
export const SERVICE_START_MS: number;
/** The time-out of every vitest hook and test: at least the starts of a pair and a restart. */
export const TEST_TIMEOUT_MS: number;

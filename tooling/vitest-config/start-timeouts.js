// How long tests wait for servers to start, in one place. A verdict must not depend on the machine's
// speed, so these are bounds against a hang, sized for a machine ten times slower than the busy
// two-core one where a token server once took over 20 s to say it listens.

/**
 * One server process, from spawn to its "listening" line, including a first start that migrates or
 * loads a demo catalogue.
 */
export const SERVICE_START_MS = 300_000;

/**
 * Every vitest hook and test: the ones that start servers start a pair one after the other and may
 * restart one, then do their own work; a test that hangs fails, only later.
 */
export const TEST_TIMEOUT_MS = 3 * SERVICE_START_MS;

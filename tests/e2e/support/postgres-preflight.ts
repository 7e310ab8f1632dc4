// Vitest global set-up of an E2E_ENGINE=postgres run: the server is checked once before any stack
// starts, so that an unreachable one fails the run with its one line rather than every file with it.
import { assertPostgresReachable } from './postgres-database.ts';

export default async function setup(): Promise<void> {
  await assertPostgresReachable();
}

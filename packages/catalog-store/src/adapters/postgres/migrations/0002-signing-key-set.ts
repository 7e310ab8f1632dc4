import type { Migration } from '../../migration.ts';

/**
 * The token server's signing-key set on a PostgreSQL deployment, so that every instance signs and
 * publishes the same keys (store README, "Signing keys"). One row: the set as the token server
 * sealed it (AES-256-GCM under a key only the token servers can derive, so the store holds no key
 * in clear), and a version that every replacement moves on by one. A replacement names the version
 * it read and changes nothing when the row has moved since: two rotations at once cannot lose one.
 * No change-feed entry: the set is not a catalogue record, and no index derived from the feed needs it.
 */
export const signingKeySet: Migration = {
  version: 2,
  name: 'signing key set',
  sql: `
CREATE TABLE signing_key_set (
  only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
  version bigint NOT NULL CHECK (version > 0),
  sealed bytea NOT NULL,
  updated_at bigint NOT NULL
);
`,
};

import type { AuditContext } from '../model/audit-event.ts';
import type { WebChannel, WebChannelInput } from '../model/web-channel.ts';
import type { ExpectedVersion } from '../records/expected-version.ts';

export interface WebChannelStore {
  list(): Promise<WebChannel[]>;
  get(slug: string): Promise<WebChannel | undefined>;
  /**
   * With `audit`, appends the write's audit event in the same transaction (so for `rename`). With
   * `expected`, a PreconditionFailedError, and nothing written, unless the registry is still at
   * that version (registryVersion).
   */
  create(input: WebChannelInput, audit?: AuditContext, expected?: ExpectedVersion): Promise<WebChannel>;
  rename(slug: string, name: string, audit?: AuditContext, expected?: ExpectedVersion): Promise<WebChannel>;
}

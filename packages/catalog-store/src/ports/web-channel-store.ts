import type { AuditContext } from '../model/audit-event.ts';
import type { WebChannel, WebChannelInput } from '../model/web-channel.ts';

export interface WebChannelStore {
  list(): Promise<WebChannel[]>;
  get(slug: string): Promise<WebChannel | undefined>;
  /** With `audit`, appends the write's audit event in the same transaction (so for `rename`). */
  create(input: WebChannelInput, audit?: AuditContext): Promise<WebChannel>;
  rename(slug: string, name: string, audit?: AuditContext): Promise<WebChannel>;
}

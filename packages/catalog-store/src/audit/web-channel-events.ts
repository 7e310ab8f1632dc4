import type { AuditContext, NewAuditEvent } from '../model/audit-event.ts';
import type { WebChannel } from '../model/web-channel.ts';
import { changedFields, contextOf } from './audit-fields.ts';

type ChannelFacts = Pick<WebChannel, 'slug' | 'name'>;

export function webChannelCreatedEvent(context: AuditContext, channel: ChannelFacts): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'web-channel.create',
    target: { type: 'web-channel', id: channel.slug },
    details: { name: channel.name },
  };
}

export function webChannelRenamedEvent(
  context: AuditContext,
  before: ChannelFacts,
  after: ChannelFacts,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'web-channel.rename',
    target: { type: 'web-channel', id: after.slug },
    changes: changedFields(before, after, ['name'], true),
  };
}

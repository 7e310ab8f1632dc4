import { type AdminUser, isAdminUserDisabled } from '../model/admin-user.ts';
import type { AuditContext, NewAuditEvent } from '../model/audit-event.ts';
import { contextOf } from './audit-fields.ts';

export function adminUserCreatedEvent(
  context: AuditContext,
  user: Pick<AdminUser, 'id' | 'email' | 'groups'>,
): NewAuditEvent {
  return {
    ...contextOf(context),
    action: 'admin-user.create',
    target: { type: 'admin-user', id: user.id },
    details: { email: user.email, groups: user.groups.join(',') },
  };
}

/**
 * The event of an account update, if the trail has one: disabling the account. The password hash
 * is read only for its disabled mark; neither its value nor whether it changed is recorded.
 */
export function adminUserUpdatedEvent(
  context: AuditContext,
  before: Pick<AdminUser, 'passwordHash'>,
  after: Pick<AdminUser, 'id' | 'email' | 'passwordHash'>,
): NewAuditEvent | undefined {
  if (isAdminUserDisabled(before) || !isAdminUserDisabled(after)) return undefined;
  return {
    ...contextOf(context),
    action: 'admin-user.disable',
    target: { type: 'admin-user', id: after.id },
    details: { email: after.email },
  };
}

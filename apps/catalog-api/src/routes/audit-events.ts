import type Router from '@koa/router';
import type { AppState } from '../http/app-state.ts';
import { contractRoute } from '../http/contract-route.ts';
import { defined } from '../http/defined.ts';
import { projectAuditEvent } from '../projection/project-audit-event.ts';
import type { RouteDeps } from './route-deps.ts';

/** GET /audit-events: the audit trail, newest first (issue 18). Read-only: the trail is append-only. */
export function auditEventRoutes(router: Router<AppState>, { store, guards }: RouteDeps): void {
  contractRoute(router, guards, 'listAuditEvents', async (ctx, { query }) => {
    const page = await store.audit.list({
      limit: query.limit,
      ...defined({
        actor: query.actor,
        action: query.action,
        targetType: query.targetType,
        targetId: query.targetId,
        since: query.since,
        until: query.until,
        before: query.before,
      }),
    });
    ctx.body = { events: page.events.map(projectAuditEvent), nextBefore: page.nextBefore };
  });
}

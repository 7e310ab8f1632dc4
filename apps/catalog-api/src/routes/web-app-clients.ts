import { CATALOG_OPERATIONS, ServiceError } from '@catalog/contracts';
import type Router from '@koa/router';
import type { AppState } from '../http/app-state.ts';
import { authorize } from '../http/authorize.ts';
import { contractRoute } from '../http/contract-route.ts';
import type { RouteDeps } from './route-deps.ts';

const notServed = () => {
  throw new ServiceError(
    404,
    'NOT_FOUND',
    'Customer data belongs to the web application and is not served here',
  );
};

/**
 * `/clients*` is the web application's customer data (decisions: Catalogue model): every M2M token
 * gets 403 whatever its scopes (spec 4.1), an administrator 404.
 */
export function webAppClientRoutes(router: Router<AppState>, { guards }: RouteDeps): void {
  for (const operation of CATALOG_OPERATIONS.values()) {
    if (operation.path.startsWith('/clients'))
      contractRoute(router, guards, operation.operationId, notServed);
  }
  // Deeper paths than the document's one-segment template get the same answers.
  router.all(
    '/clients/*rest',
    guards.authenticate,
    guards.checkClientStatus,
    authorize({ kind: 'admin' }),
    notServed,
  );
}

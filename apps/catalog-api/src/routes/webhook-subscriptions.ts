import { ServiceError } from '@catalog/contracts';
import type { Actor } from '@catalog/store';
import type Router from '@koa/router';
import type { Principal } from '../auth/principal.ts';
import { createWebhookSubscription } from '../domain/webhooks/create-webhook-subscription.ts';
import { listWebhookDeliveries } from '../domain/webhooks/list-webhook-deliveries.ts';
import { redeliverWebhookEvents } from '../domain/webhooks/redeliver-webhook-events.ts';
import { rotateWebhookSecret } from '../domain/webhooks/rotate-webhook-secret.ts';
import { updateWebhookSubscription, webhookPatchOf } from '../domain/webhooks/update-webhook-subscription.ts';
import type { AppState } from '../http/app-state.ts';
import { auditContextOf } from '../http/audit-context.ts';
import { contractRoute } from '../http/contract-route.ts';
import { defined } from '../http/defined.ts';
import { recordVersion, sendEntityTag, type TagTarget, writeIfMatch } from '../http/entity-tags.ts';
import {
  projectCreatedWebhookSubscription,
  projectWebhookDelivery,
  projectWebhookSubscription,
} from '../projection/project-webhook.ts';
import { webhookSecretSealingKey } from '../webhooks/delivery/webhook-secret-sealing.ts';
import type { RouteDeps } from './route-deps.ts';

function actorOf(principal: Principal | undefined): Actor {
  if (principal?.kind !== 'user') throw new Error('webhook routes run for administrators only');
  return { userId: principal.userId, userName: principal.userName };
}

const subscriptionTag = (id: string): TagTarget => ({ kind: 'webhook-subscription', key: id });

const subscriptionNotFound = () => new ServiceError(404, 'NOT_FOUND', 'Webhook subscription not found');

/** The admin webhook routes (issue 31): subscriptions, their secrets, delivery log and redelivery. */
export function webhookSubscriptionRoutes(router: Router<AppState>, deps: RouteDeps): void {
  const { store, guards } = deps;
  const { allowPrivateNetworks } = deps.config.webhooks;
  // Derived once: every secret the API seals, and the delivery worker unseals, is under this key.
  const sealingKey = webhookSecretSealingKey(deps.secretPepper);

  contractRoute(router, guards, 'listWebhookSubscriptions', async (ctx, { query }) => {
    const subscriptions = await store.webhooks.listSubscriptions(defined({ clientId: query.clientId }));
    ctx.body = { subscriptions: subscriptions.map(projectWebhookSubscription), count: subscriptions.length };
  });

  contractRoute(router, guards, 'createWebhookSubscription', async (ctx, { body }) => {
    const { subscription, secret } = await createWebhookSubscription({
      store,
      sealingKey,
      allowPrivateNetworks,
      actor: actorOf(ctx.state.principal),
      audit: auditContextOf(ctx),
      now: deps.now(),
      request: body,
    });
    ctx.status = 201;
    sendEntityTag(ctx, subscriptionTag(subscription.id), subscription.version);
    ctx.body = projectCreatedWebhookSubscription(subscription, secret);
  });

  contractRoute(router, guards, 'getWebhookSubscription', async (ctx, { params: { subscriptionId } }) => {
    const subscription = await store.webhooks.getSubscription(subscriptionId);
    if (subscription === undefined) throw subscriptionNotFound();
    sendEntityTag(ctx, subscriptionTag(subscriptionId), subscription.version);
    ctx.body = projectWebhookSubscription(subscription);
  });

  contractRoute(
    router,
    guards,
    'patchWebhookSubscription',
    async (ctx, { params: { subscriptionId }, body }) => {
      const subscription = await writeIfMatch(
        ctx,
        subscriptionTag(subscriptionId),
        'optional',
        (expected) =>
          updateWebhookSubscription({
            store,
            subscriptionId,
            patch: webhookPatchOf(body),
            allowPrivateNetworks,
            audit: auditContextOf(ctx),
            now: deps.now(),
            expected,
          }),
        recordVersion,
      );
      ctx.body = projectWebhookSubscription(subscription);
    },
  );

  contractRoute(router, guards, 'deleteWebhookSubscription', async (ctx, { params: { subscriptionId } }) => {
    await writeIfMatch(ctx, subscriptionTag(subscriptionId), 'optional', (expected) =>
      store.webhooks.deleteSubscription(subscriptionId, auditContextOf(ctx), expected),
    );
    ctx.status = 204;
  });

  contractRoute(router, guards, 'rotateWebhookSecret', async (ctx, { params: { subscriptionId }, body }) => {
    const rotation = await rotateWebhookSecret({
      store,
      sealingKey,
      subscriptionId,
      overlapHours: body?.overlapHours,
      audit: auditContextOf(ctx),
      now: deps.now(),
    });
    ctx.body = { subscriptionId, ...rotation };
  });

  contractRoute(
    router,
    guards,
    'listWebhookDeliveries',
    async (ctx, { params: { subscriptionId }, query }) => {
      const page = await listWebhookDeliveries({
        store,
        subscriptionId,
        filter: { limit: query.limit, ...defined({ status: query.status, before: query.before }) },
      });
      ctx.body = { deliveries: page.deliveries.map(projectWebhookDelivery), nextBefore: page.nextBefore };
    },
  );

  contractRoute(
    router,
    guards,
    'redeliverWebhookEvents',
    async (ctx, { params: { subscriptionId }, body }) => {
      const queued = await redeliverWebhookEvents({
        store,
        subscriptionId,
        selection: body,
        audit: auditContextOf(ctx),
      });
      ctx.body = { queued };
    },
  );
}

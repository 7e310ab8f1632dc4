import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';

type Interaction = Awaited<ReturnType<Provider['interactionDetails']>>;

/**
 * Completes the interaction with login and consent together. The admin client is our own, so
 * consent is implied: a Grant for the requested OpenID scopes is created here, which also spares
 * the CLI the consent prompt oidc-provider would otherwise raise.
 */
export async function finishSignIn(input: {
  readonly provider: Provider;
  readonly interaction: Interaction;
  readonly accountId: string;
  readonly login: boolean;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
}): Promise<void> {
  const { provider, interaction, accountId } = input;
  const clientId = String(interaction.params.client_id);
  const grant =
    (interaction.grantId === undefined ? undefined : await provider.Grant.find(interaction.grantId)) ??
    new provider.Grant({ accountId, clientId });
  const scope = typeof interaction.params.scope === 'string' ? interaction.params.scope : 'openid';
  grant.addOIDCScope(scope);
  const grantId = await grant.save();
  await provider.interactionFinished(
    input.req,
    input.res,
    { ...(input.login ? { login: { accountId } } : {}), consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
}

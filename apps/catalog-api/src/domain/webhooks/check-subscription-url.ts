import { checkEndpointUrl, EndpointRefusedError } from '../../webhooks/delivery/endpoint-policy.ts';
import { webhookInputError } from './webhook-input-error.ts';

/**
 * Refuses, as the caller's 400, an endpoint the delivery worker would refuse to call (not https,
 * credentials in it, a host resolving to a loopback, private or link-local address unless
 * `allowPrivateNetworks`): better said at once than as failed deliveries later.
 */
export async function checkSubscriptionUrl(input: {
  readonly url: string;
  readonly allowPrivateNetworks: boolean;
}): Promise<void> {
  try {
    await checkEndpointUrl(input.url, { allowPrivateNetworks: input.allowPrivateNetworks });
  } catch (error) {
    if (error instanceof EndpointRefusedError) throw webhookInputError('url', error.reason);
    throw error;
  }
}

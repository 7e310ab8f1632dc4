import { CHANNEL_SLUG_PATTERN } from '@catalog/contracts';

export interface WebChannel {
  slug: string;
  name: string;
  createdAt: string;
  /** 1 when created, one more with every rename. */
  version: number;
}

/**
 * The version of the registry as a whole, which the channel writes address (they name the channel
 * in the body, not the path): a channel is never removed, a new one starts at 1 and a rename adds
 * 1, so the sum of the channels' versions grows with every write.
 */
export function registryVersion(channels: readonly Pick<WebChannel, 'version'>[]): number {
  return channels.reduce((sum, channel) => sum + channel.version, 0);
}

export interface WebChannelInput {
  slug: string;
  name?: string;
}

/** Kebab-case, as spec 2.4 requires for a client's channel. */
export const WEB_CHANNEL_SLUG_PATTERN: RegExp = CHANNEL_SLUG_PATTERN;

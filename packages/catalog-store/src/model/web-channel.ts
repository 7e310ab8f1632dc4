import { CHANNEL_SLUG_PATTERN } from '@catalog/contracts';

export interface WebChannel {
  slug: string;
  name: string;
  createdAt: string;
}

export interface WebChannelInput {
  slug: string;
  name?: string;
}

/** Kebab-case, as spec 2.4 requires for a client's channel. */
export const WEB_CHANNEL_SLUG_PATTERN: RegExp = CHANNEL_SLUG_PATTERN;

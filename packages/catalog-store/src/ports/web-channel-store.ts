import type { WebChannel, WebChannelInput } from '../model/web-channel.ts';

export interface WebChannelStore {
  list(): Promise<WebChannel[]>;
  get(slug: string): Promise<WebChannel | undefined>;
  create(input: WebChannelInput): Promise<WebChannel>;
  rename(slug: string, name: string): Promise<WebChannel>;
}

import type { AuditContext } from '../model/audit-event.ts';
import type { WebChannel, WebChannelInput } from '../model/web-channel.ts';
import type { WebChannelStore } from '../ports/web-channel-store.ts';
import type { ExpectedVersion } from './expected-version.ts';
import type { RecordEngine } from './record-engine.ts';
import { rows } from './record-work.ts';
import { channelRow, createWebChannel, renameWebChannel } from './web-channel-records.ts';
import { type ChannelRow, SELECT_CHANNEL, toChannel } from './web-channel-row.ts';

/** The web channels on either record engine. */
export class RecordWebChannelStore implements WebChannelStore {
  readonly #engine: RecordEngine;

  constructor(engine: RecordEngine) {
    this.#engine = engine;
  }

  async list(): Promise<WebChannel[]> {
    const { byteOrder } = this.#engine.dialect;
    const found = await this.#engine.direct(() =>
      rows<ChannelRow>(`${SELECT_CHANNEL} ORDER BY slug${byteOrder}`),
    );
    return found.map(toChannel);
  }

  async get(slug: string): Promise<WebChannel | undefined> {
    const found = await this.#engine.direct(() => channelRow(slug));
    return found === undefined ? undefined : toChannel(found);
  }

  create(input: WebChannelInput, audit?: AuditContext, expected?: ExpectedVersion): Promise<WebChannel> {
    return this.#engine.write(() => createWebChannel(input, audit, expected));
  }

  rename(slug: string, name: string, audit?: AuditContext, expected?: ExpectedVersion): Promise<WebChannel> {
    return this.#engine.write(() => renameWebChannel(slug, name, audit, expected));
  }
}

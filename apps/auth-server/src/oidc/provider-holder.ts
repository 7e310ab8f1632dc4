import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';

type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/**
 * The provider currently in service. It is built once the issuer URL is known (after listening, when
 * the port was 0) and replaced when the signing keys change; requests arriving before the first build
 * wait for it.
 */
export class ProviderHolder {
  #current: { provider: Provider; handler: Handler } | undefined;
  #markReady: () => void = () => {};
  readonly #ready = new Promise<void>((resolve) => {
    this.#markReady = resolve;
  });

  /** Whether a provider (and so the signing keys) is in service: readiness. */
  get installed(): boolean {
    return this.#current !== undefined;
  }

  install(provider: Provider): void {
    this.#current = { provider, handler: provider.callback() as Handler };
    this.#markReady();
  }

  async current(): Promise<{ provider: Provider; handler: Handler }> {
    if (this.#current === undefined) await this.#ready;
    return this.#current as { provider: Provider; handler: Handler };
  }
}

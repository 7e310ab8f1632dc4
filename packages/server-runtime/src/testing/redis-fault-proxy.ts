import { createServer, connect as netConnect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of the test's Redis server that a test can cut, as a network failure or a
 * stopped Redis would look to the API, and restore, without disturbing the real server (other test
 * runs use it too). Cut: open connections are reset and new ones closed on arrival.
 */
export class RedisFaultProxy {
  readonly #server: Server;
  readonly #target: URL;
  readonly #open = new Set<Socket>();
  #cut = false;

  private constructor(server: Server, target: URL) {
    this.#server = server;
    this.#target = target;
  }

  static async start(redisUrl: string): Promise<RedisFaultProxy> {
    const target = new URL(redisUrl);
    const server = createServer();
    const proxy = new RedisFaultProxy(server, target);
    server.on('connection', (socket) => proxy.#relay(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The test server's URL (credentials and database kept) with this relay as its address. */
  get url(): string {
    const url = new URL(this.#target);
    url.hostname = '127.0.0.1';
    url.port = String((this.#server.address() as { port: number }).port);
    return url.toString();
  }

  cut(): void {
    this.#cut = true;
    for (const socket of this.#open) socket.resetAndDestroy();
    this.#open.clear();
  }

  restore(): void {
    this.#cut = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  #relay(client: Socket): void {
    if (this.#cut) {
      client.resetAndDestroy();
      return;
    }
    const upstream = netConnect(Number(this.#target.port || 6379), this.#target.hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      this.#open.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        this.#open.delete(from);
        to.destroy();
      });
    }
  }
}

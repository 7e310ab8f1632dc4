import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** A byte every this often: slower than any server's patience would allow for a whole request. */
const DRIBBLE_EVERY_MS = 100;

/** Callers that connect and then stall, to check a server (or nginx before it) cuts them off. */
export interface SlowClients {
  /** A TLS connection to 127.0.0.1:`port` trusting the CA, handshake done. */
  tlsClient(port: number): Promise<Socket>;
  /** A bare TCP connection to 127.0.0.1:`port`, for callers that never finish a TLS handshake. */
  tcpClient(port: number): Promise<Socket>;
  /** Resolves once the other side closes the connection; fails past `closeBoundMs`. */
  closedByPeer(socket: Socket): Promise<void>;
  /** Writes `next()` every 100 ms until the connection closes, so only the other side can end it. */
  dribble(socket: Socket, next: () => string | Buffer): void;
  /** What the socket received, once it includes `marker`. */
  readUntil(socket: Socket, marker: string): Promise<string>;
  /** Destroys every connection opened since the last call (a test's leftovers). */
  destroyAll(): void;
}

/**
 * `ca` is read at each connection, as tests set their CA up once the file has loaded;
 * `closeBoundMs` is the generous bound past which a cut-off is missing, not merely slow.
 */
export function slowClients(options: { ca: () => string | undefined; closeBoundMs: number }): SlowClients {
  const sockets: Socket[] = [];
  const opened = (connect: (ready: () => void) => Socket) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(() => resolve(socket));
      sockets.push(socket);
      socket.once('error', reject);
    });
  return {
    tlsClient: (port) =>
      opened((ready) =>
        tlsConnect({ host: '127.0.0.1', port, servername: 'localhost', ca: options.ca() }, ready),
      ),
    tcpClient: (port) => opened((ready) => netConnect({ host: '127.0.0.1', port }, ready)),
    closedByPeer: (socket) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`still connected after ${options.closeBoundMs} ms`)),
          options.closeBoundMs,
        );
        socket.on('error', () => undefined);
        // Whatever the peer answers before closing is read, so its close is seen behind it.
        socket.resume();
        socket.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
    dribble: (socket, next) => {
      const timer = setInterval(() => {
        if (socket.writable) socket.write(next());
      }, DRIBBLE_EVERY_MS);
      socket.once('close', () => clearInterval(timer));
    },
    readUntil: (socket, marker) =>
      new Promise((resolve) => {
        let received = '';
        socket.on('data', (chunk: Buffer) => {
          received += chunk.toString();
          if (received.includes(marker)) resolve(received);
        });
      }),
    destroyAll: () => {
      for (const socket of sockets.splice(0)) socket.destroy();
    },
  };
}

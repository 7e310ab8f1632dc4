import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectionTimeouts,
  ensureLocalTls,
  listen,
  type RunningServer,
  type TlsMaterial,
} from '../src/index.ts';

// Short deadlines keep each test quick; the slow clients below keep dribbling until the server
// closes the connection, so only the server can end them, however loaded the machine is.
const TIMEOUTS: ConnectionTimeouts = {
  tlsHandshakeMs: 400,
  headersMs: 400,
  requestMs: 800,
  keepAliveMs: 400,
};
// Generous: a missing time-out means Node's defaults (60 s to 5 min), far past this.
const CLOSE_BOUND_MS = 15_000;
const DRIBBLE_EVERY_MS = 100;

let dataDir: string;
let tls: TlsMaterial;
const running: RunningServer[] = [];
const clients: Socket[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'server-runtime-timeouts-'));
  tls = await ensureLocalTls(dataDir);
});
afterEach(async () => {
  for (const client of clients.splice(0)) client.destroy();
  await Promise.all(running.splice(0).map((server) => server.close(100)));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

/** Reads the whole body before answering, as a JSON route does. */
const readThenAnswer = (req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on('end', () => res.end('done'));
};

async function start(transport: 'tls' | 'plain'): Promise<RunningServer> {
  const server = await listen({
    handler: readThenAnswer,
    host: '127.0.0.1',
    port: 0,
    tls: transport === 'tls' ? tls : null,
    portVariable: 'PORT',
    timeouts: TIMEOUTS,
  });
  running.push(server);
  return server;
}

/** Resolves once the server closes the client's connection; fails past the generous bound. */
function serverCloses(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`still connected after ${CLOSE_BOUND_MS} ms`)),
      CLOSE_BOUND_MS,
    );
    socket.on('error', () => undefined);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** Writes one byte of `next()` every DRIBBLE_EVERY_MS until the connection closes. */
function dribble(socket: Socket, next: () => string | Buffer): void {
  const timer = setInterval(() => {
    if (socket.writable) socket.write(next());
  }, DRIBBLE_EVERY_MS);
  socket.once('close', () => clearInterval(timer));
}

function tlsClient(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tlsConnect({ host: '127.0.0.1', port, servername: 'localhost', ca: tls.ca }, () =>
      resolve(socket),
    );
    clients.push(socket);
    socket.once('error', reject);
  });
}

function tcpClient(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: '127.0.0.1', port }, () => resolve(socket));
    clients.push(socket);
    socket.once('error', reject);
  });
}

describe('slow clients are disconnected (issue 13: header, request, idle and TLS-handshake time-outs)', () => {
  it('closes a TLS connection whose request headers arrive one byte at a time (header time-out)', async () => {
    const server = await start('tls');
    const socket = await tlsClient(server.port);
    const closed = serverCloses(socket);
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    dribble(socket, () => 'a');
    await closed;
  });

  it('closes a plain-HTTP connection (TRUST_PROXY mode) whose headers arrive one byte at a time', async () => {
    const server = await start('plain');
    const socket = await tcpClient(server.port);
    const closed = serverCloses(socket);
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    dribble(socket, () => 'a');
    await closed;
  });

  it('closes a TLS connection whose request body arrives one byte at a time (request time-out)', async () => {
    const server = await start('tls');
    const socket = await tlsClient(server.port);
    const closed = serverCloses(socket);
    socket.write('POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n');
    dribble(socket, () => 'a');
    await closed;
  });

  it('closes a kept-alive TLS connection that stays idle after its response (keep-alive time-out)', async () => {
    const server = await start('tls');
    const socket = await tlsClient(server.port);
    const closed = serverCloses(socket);
    let received = '';
    const answered = new Promise<void>((resolve) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
        if (received.includes('done')) resolve();
      });
    });
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    await answered;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).not.toMatch(/connection: close/i);
    await closed;
  });

  it('closes a connection that sends one TLS byte and then nothing (handshake time-out)', async () => {
    const server = await start('tls');
    const socket = await tcpClient(server.port);
    const closed = serverCloses(socket);
    socket.write(Buffer.from([0x16]));
    await closed;
  });

  it('closes a connection that dribbles its TLS handshake one byte at a time (handshake time-out)', async () => {
    const server = await start('tls');
    const socket = await tcpClient(server.port);
    const closed = serverCloses(socket);
    // A handshake record announcing 16 KiB, so the server keeps waiting for the rest of it.
    socket.write(Buffer.from([0x16, 0x03, 0x01, 0x40, 0x00]));
    dribble(socket, () => Buffer.from([0x00]));
    await closed;
  });

  it('closes a connection that never sends a first byte', async () => {
    const server = await start('tls');
    const socket = await tcpClient(server.port);
    await serverCloses(socket);
  });
});

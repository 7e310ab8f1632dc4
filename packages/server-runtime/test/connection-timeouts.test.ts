import { mkdtemp, rm } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ConnectionTimeouts,
  ensureLocalTls,
  listen,
  type RunningServer,
  type TlsMaterial,
} from '../src/index.ts';
import { slowClients } from '../src/testing/slow-clients.ts';

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

let dataDir: string;
let tls: TlsMaterial;
const running: RunningServer[] = [];
const { tlsClient, tcpClient, closedByPeer, dribble, readUntil, destroyAll } = slowClients({
  ca: () => tls.ca,
  closeBoundMs: CLOSE_BOUND_MS,
});

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'server-runtime-timeouts-'));
  tls = await ensureLocalTls(dataDir);
});
afterEach(async () => {
  destroyAll();
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

describe('slow clients are disconnected (issue 13: header, request, idle and TLS-handshake time-outs)', () => {
  it('closes a TLS connection whose request headers arrive one byte at a time (header time-out)', async () => {
    const server = await start('tls');
    const socket = await tlsClient(server.port);
    const closed = closedByPeer(socket);
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    dribble(socket, () => 'a');
    await closed;
  });

  it('closes a plain-HTTP connection (TRUST_PROXY mode) whose headers arrive one byte at a time', async () => {
    const server = await start('plain');
    const socket = await tcpClient(server.port);
    const closed = closedByPeer(socket);
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    dribble(socket, () => 'a');
    await closed;
  });

  it('closes a TLS connection whose request body arrives one byte at a time (request time-out)', async () => {
    const server = await start('tls');
    const socket = await tlsClient(server.port);
    const closed = closedByPeer(socket);
    socket.write('POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100000\r\n\r\n');
    dribble(socket, () => 'a');
    await closed;
  });

  it('closes a kept-alive TLS connection that stays idle after its response (keep-alive time-out)', async () => {
    const server = await start('tls');
    const socket = await tlsClient(server.port);
    const closed = closedByPeer(socket);
    const answered = readUntil(socket, 'done');
    socket.write('GET / HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
    const received = await answered;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(received).not.toMatch(/connection: close/i);
    await closed;
  });

  it('closes a connection that sends one TLS byte and then nothing (handshake time-out)', async () => {
    const server = await start('tls');
    const socket = await tcpClient(server.port);
    const closed = closedByPeer(socket);
    socket.write(Buffer.from([0x16]));
    await closed;
  });

  it('closes a connection that dribbles its TLS handshake one byte at a time (handshake time-out)', async () => {
    const server = await start('tls');
    const socket = await tcpClient(server.port);
    const closed = closedByPeer(socket);
    // A handshake record announcing 16 KiB, so the server keeps waiting for the rest of it.
    socket.write(Buffer.from([0x16, 0x03, 0x01, 0x40, 0x00]));
    dribble(socket, () => Buffer.from([0x00]));
    await closed;
  });

  it('closes a connection that never sends a first byte', async () => {
    const server = await start('tls');
    const socket = await tcpClient(server.port);
    await closedByPeer(socket);
  });
});

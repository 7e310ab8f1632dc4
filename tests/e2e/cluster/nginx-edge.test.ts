// nginx facing callers as the instances face them (issue 26): slow or silent callers are cut as the
// servers cut them, the access log keeps no credential sent in a query string and is not
// world-readable, and every refusal nginx makes itself is a JSON body with the servers' headers.
import { randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { rawRequest, slowClients } from '@catalog/server-runtime/testing';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, startCluster } from './support/cluster.ts';

// Short deadlines, in nginx and in the instances a body streams to, keep each test quick; the slow
// callers below keep dribbling until the other side closes, so only nginx can end them.
const NGINX_TIMEOUTS = { clientHeader: '1s', clientBody: '1s', send: '1s', keepalive: '1s', lingering: '1s' };
const INSTANCE_TIMEOUTS = { HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000' };
// Generous: without the cut-offs nginx holds such a caller for minutes (a body: for as long as it dribbles).
const CLOSE_BOUND_MS = 30_000;

let cluster: Cluster;
const slow = slowClients({ ca: () => cluster.ca, closeBoundMs: CLOSE_BOUND_MS });

beforeAll(async () => {
  cluster = await startCluster({
    demoProducts: 20,
    env: { RATE_LIMIT_RPS: '0', RATE_LIMIT_IP_PER_5MIN: '0', ...INSTANCE_TIMEOUTS },
    nginxTimeouts: NGINX_TIMEOUTS,
  });
});
afterEach(() => slow.destroyAll());
afterAll(() => cluster?.stop());

const portOf = (url: string) => Number(new URL(url).port);
const servers = () =>
  [
    { name: 'catalog API', url: cluster.baseUrl },
    { name: 'token server', url: cluster.authUrl },
  ] as const;

const tlsClient = (url: string) => slow.tlsClient(portOf(url));
const tcpClient = (url: string) => slow.tcpClient(portOf(url));
const { closedByPeer, dribble, readUntil } = slow;

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Sends `request` as it is over a fresh TLS connection and reads the answer, headers and body. */
async function exchange(url: string, request: string): Promise<Answer> {
  const socket = await tlsClient(url);
  let text = '';
  const answered = new Promise<Answer>((resolve, reject) => {
    // Once the whole answer is in: nginx may keep reading (lingering) what the caller still sends.
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const answer = parseAnswer(text);
      if (answer !== undefined) resolve(answer);
    });
    socket.once('close', () => reject(new Error(`closed before a whole answer:\n${text}`)));
  });
  socket.on('error', () => undefined);
  socket.write(request);
  return answered;
}

/** The answer in `text`, or undefined while its headers or body are incomplete. */
function parseAnswer(text: string): Answer | undefined {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (text.length < end + 4 + length) return undefined;
  return { status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4, end + 4 + length) };
}

describe('nginx cuts slow and silent callers as the instances do (client_header_timeout, client_body_timeout, keepalive_timeout)', () => {
  for (const server of ['catalog API', 'token server'] as const) {
    const url = () => (server === 'catalog API' ? cluster.baseUrl : cluster.authUrl);
    const path = server === 'catalog API' ? '/products' : '/oauth2/token';

    it(`${server}: closes a connection whose request headers arrive one byte at a time`, async () => {
      const socket = await tlsClient(url());
      const closed = closedByPeer(socket);
      socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
      dribble(socket, () => 'a');
      await closed;
    });

    it(`${server}: closes a connection whose request body arrives one byte at a time (the instance it streams to bounds the whole request)`, async () => {
      const socket = await tlsClient(url());
      const closed = closedByPeer(socket);
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n`,
      );
      dribble(socket, () => 'a');
      await closed;
    });

    it(`${server}: closes a kept-alive connection that stays idle after its answer`, async () => {
      const socket = await tlsClient(url());
      const closed = closedByPeer(socket);
      const answered = readUntil(socket, '\r\n\r\n');
      socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n');
      const received = await answered;
      expect(received).toMatch(/^HTTP\/1\.1 200/);
      expect(received).not.toMatch(/connection: close/i);
      await closed;
    });
  }

  it('closes a connection that dribbles its TLS handshake one byte at a time', async () => {
    const socket = await tcpClient(cluster.baseUrl);
    const closed = closedByPeer(socket);
    // A handshake record announcing 16 KiB, so nginx keeps waiting for the rest of it.
    socket.write(Buffer.from([0x16, 0x03, 0x01, 0x40, 0x00]));
    dribble(socket, () => Buffer.from([0x00]));
    await closed;
  });

  it('closes a connection that never sends a first byte', async () => {
    await closedByPeer(await tcpClient(cluster.authUrl));
  });
});

describe('nginx’s access log keeps no credential and is not world-readable', () => {
  it('a request carrying client_secret, password, access_token, code, code_verifier or id_token in its query string: none of the values is in the access log, the paths are, and the file has no permission for others', async () => {
    const secret = (name: string) => `${name}-${randomBytes(12).toString('hex')}`;
    const values = Object.fromEntries(
      ['client_secret', 'password', 'access_token', 'code', 'code_verifier', 'id_token'].map((name) => [
        name,
        secret(name),
      ]),
    );
    const query = new URLSearchParams(values).toString();
    const calls = [
      { url: `${cluster.authUrl}/oauth2/token?${query}`, method: 'POST' },
      { url: `${cluster.authUrl}/interaction/abc/login?${query}`, method: 'POST' },
      { url: `${cluster.authUrl}/oauth2/auth?${query}`, method: 'GET' },
      { url: `${cluster.baseUrl}/products/search?${query}`, method: 'GET' },
    ];
    for (const call of calls) {
      const reply = await rawRequest(call.url, {
        method: call.method,
        ca: cluster.ca,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: '',
      });
      expect(reply.status, call.url).toBeGreaterThanOrEqual(200);
    }

    // nginx writes a request's line once it has answered it: wait until all four are there.
    const deadline = Date.now() + 30_000;
    let log = await readFile(cluster.accessLog, 'utf8');
    while (!log.includes('/products/search') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      log = await readFile(cluster.accessLog, 'utf8');
    }
    for (const path of ['/oauth2/token', '/interaction/abc/login', '/oauth2/auth', '/products/search'])
      expect(log).toContain(path);
    for (const [name, value] of Object.entries(values)) expect(log, name).not.toContain(value);

    const { mode } = await stat(cluster.accessLog);
    expect(mode & 0o007).toBe(0);
  });
});

describe('every refusal nginx makes itself is the servers’ JSON error body with their security headers', () => {
  const longQuery = `?q=${'a'.repeat(9_000)}`;
  const bigHeader = `X-Big: ${'b'.repeat(20_000)}`;
  const refusals = [
    {
      what: 'a URL longer than nginx reads (414)',
      status: 414,
      request: `GET /products/search${longQuery} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`,
    },
    {
      what: 'headers larger than nginx reads (431, as the instances answer)',
      status: 431,
      request: `GET /health HTTP/1.1\r\nHost: localhost\r\n${bigHeader}\r\nConnection: close\r\n\r\n`,
    },
    {
      what: 'a malformed request: two Host headers (400)',
      status: 400,
      request: 'GET /health HTTP/1.1\r\nHost: localhost\r\nHost: other\r\nConnection: close\r\n\r\n',
    },
    {
      what: 'a body larger than the limit (413)',
      status: 413,
      request:
        'POST /products HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\nConnection: close\r\n\r\n',
    },
    {
      what: 'a Transfer-Encoding nginx does not read (501)',
      status: 501,
      request:
        'POST /products HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n',
    },
    {
      what: 'nginx’s own error locations asked for directly (404)',
      status: 404,
      request: 'GET /.nginx-error/500 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n',
    },
  ];

  const expectServersAnswer = (answer: Answer, server: string, status: number) => {
    expect(answer.status, server).toBe(status);
    expect(answer.headers['content-type'], server).toMatch(/^application\/json/);
    expect(answer.headers['strict-transport-security'], server).toMatch(/^max-age=\d+/);
    expect(answer.headers['x-content-type-options'], server).toBe('nosniff');
    const body = JSON.parse(answer.body) as Record<string, unknown>;
    if (server === 'token server')
      expect(body).toEqual({ error: expect.any(String), error_description: expect.any(String) });
    else if (status === 404) expect(body).toEqual({ message: 'Not Found', error: 'NOT_FOUND' });
    else expect(body).toEqual({ message: expect.any(String) });
  };

  for (const refusal of refusals) {
    it(`${refusal.what}: JSON in each server's shape, with HSTS and nosniff`, async () => {
      for (const server of servers())
        expectServersAnswer(await exchange(server.url, refusal.request), server.name, refusal.status);
    });
  }

  it('plain HTTP on nginx’s HTTPS ports (400): JSON in each server’s shape, with nosniff', async () => {
    for (const server of servers()) {
      const reply = await rawRequest(`${server.url.replace('https:', 'http:')}/health`);
      expect(reply.status).toBe(400);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.body).toMatch(/HTTPS only/);
    }
  });
});

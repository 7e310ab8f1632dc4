import { X509Certificate } from 'node:crypto';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ensureLocalTls, ListenError, listen, localCaFiles, type RunningServer } from '../src/index.ts';

let dataDir: string;
const running: RunningServer[] = [];

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'server-runtime-'));
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close(100)));
  await rm(dataDir, { recursive: true, force: true });
});

interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

function get(url: string, ca?: string): Promise<Reply> {
  const send = url.startsWith('https:') ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { agent: false, ...(ca ? { ca } : {}) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('local CA (decisions: HTTPS)', () => {
  it('creates a CA and a localhost certificate under DATA_DIR/tls with private keys readable by the owner only', async () => {
    const material = await ensureLocalTls(dataDir);
    const files = localCaFiles(dataDir);
    expect(material.caFile).toBe(files.caCert);
    expect((await stat(files.caKey)).mode & 0o777).toBe(0o600);
    expect((await stat(files.serverKey)).mode & 0o777).toBe(0o600);
    const server = new X509Certificate(material.cert);
    const ca = new X509Certificate(material.ca ?? '');
    expect(server.verify(ca.publicKey)).toBe(true);
    expect(server.checkHost('localhost')).toBe('localhost');
    expect(server.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(ca.ca).toBe(true);
    expect(server.ca).toBe(false);
  });

  it('reuses the existing CA on the next start instead of minting a new one', async () => {
    const first = await ensureLocalTls(dataDir);
    const second = await ensureLocalTls(dataDir);
    expect(second.ca).toBe(first.ca);
    expect(second.cert).toBe(first.cert);
  });

  it('gives two servers starting at the same moment the same CA and leaves no staging folders', async () => {
    const results = await Promise.all([
      ensureLocalTls(dataDir),
      ensureLocalTls(dataDir),
      ensureLocalTls(dataDir),
    ]);
    expect(new Set(results.map((r) => r.ca)).size).toBe(1);
    expect(await readdir(dataDir)).toEqual(['tls']);
  });
});

describe('listening (spec 5.10: all requests use HTTPS; plain HTTP is not supported)', () => {
  const hello = (_req: unknown, res: import('node:http').ServerResponse) => {
    res.setHeader('Content-Type', 'application/json');
    res.end('{"hello":"tls"}');
  };

  it('answers over TLS with a certificate the local CA vouches for', async () => {
    const tls = await ensureLocalTls(dataDir);
    const server = await listen({ handler: hello, host: '127.0.0.1', port: 0, tls, portVariable: 'PORT' });
    running.push(server);
    const reply = await get(`https://localhost:${server.port}/`, tls.ca);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({ hello: 'tls' });
  });

  it('refuses a plain HTTP request on the TLS port with a 400 JSON body that says to use HTTPS', async () => {
    const tls = await ensureLocalTls(dataDir);
    const server = await listen({ handler: hello, host: '127.0.0.1', port: 0, tls, portVariable: 'PORT' });
    running.push(server);
    const reply = await get(`http://127.0.0.1:${server.port}/`);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.body).message).toMatch(/HTTPS only/);
    expect(reply.body).not.toContain('hello');
  });

  it('rejects a TLS client that does not trust the CA (no silent downgrade)', async () => {
    const tls = await ensureLocalTls(dataDir);
    const server = await listen({ handler: hello, host: '127.0.0.1', port: 0, tls, portVariable: 'PORT' });
    running.push(server);
    await expect(get(`https://localhost:${server.port}/`)).rejects.toThrow(
      /self.signed|unable to verify|certificate/i,
    );
  });

  it('names the port and its variable when the port is already taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as import('node:net').AddressInfo).port;
    try {
      const attempt = listen({
        handler: hello,
        host: '127.0.0.1',
        port,
        tls: null,
        portVariable: 'CATALOG_API_PORT',
      });
      await expect(attempt).rejects.toBeInstanceOf(ListenError);
      await expect(attempt).rejects.toThrow(new RegExp(`port ${port} .*already in use.*CATALOG_API_PORT`));
    } finally {
      blocker.close();
    }
  });

  it('lets an in-flight request finish when the server is asked to stop', async () => {
    const tls = await ensureLocalTls(dataDir);
    let signalStarted = () => {};
    const started = new Promise<void>((resolve) => {
      signalStarted = resolve;
    });
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The handler answers only when the test lets it, so the request is in flight when close() is
    // called however slowly the machine runs.
    const held = (_req: unknown, res: import('node:http').ServerResponse) => {
      signalStarted();
      void released.then(() => res.end('done'));
    };
    const server = await listen({ handler: held, host: '127.0.0.1', port: 0, tls, portVariable: 'PORT' });
    const pending = get(`https://localhost:${server.port}/`, tls.ca);
    await started;
    // A close that did not wait would destroy the connection before the handler is released.
    const closing = server.close(600_000);
    release();
    await closing;
    const reply = await pending;
    expect(reply.status).toBe(200);
    expect(reply.body).toBe('done');
    await expect(get(`https://localhost:${server.port}/`, tls.ca)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('refuses a request carrying two Host headers with a 400 and never runs the handler', async () => {
    const tls = await ensureLocalTls(dataDir);
    let handled = 0;
    const counting = (req: unknown, res: import('node:http').ServerResponse) => {
      handled += 1;
      hello(req, res);
    };
    const server = await listen({ handler: counting, host: '127.0.0.1', port: 0, tls, portVariable: 'PORT' });
    running.push(server);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect(
        { host: '127.0.0.1', port: server.port, servername: 'localhost', ca: tls.ca },
        () => socket.end('GET / HTTP/1.1\r\nHost: localhost\r\nHost: evil.example\r\n\r\n'),
      );
      let received = '';
      socket.on('data', (chunk: Buffer) => {
        received += chunk.toString();
      });
      socket.on('end', () => resolve(received));
      socket.on('error', reject);
    });
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)).message).toMatch(/exactly one Host header/);
    expect(handled).toBe(0);
    // One Host header is still served.
    expect((await get(`https://localhost:${server.port}/`, tls.ca)).status).toBe(200);
  });
});

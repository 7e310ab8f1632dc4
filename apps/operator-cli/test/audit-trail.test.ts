import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openCatalogue, selectEngines } from '@catalog/engines';
import { runToExit, spawnService } from '@catalog/server-runtime/testing';
import type { AuditEvent } from '@catalog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdminInProcess } from './support/run-admin-in-process.ts';

// Every state-changing operator command appends its event to the audit trail, and `pnpm admin
// audit` reads the trail back (issue 18). The real CLIs run in child processes on a real SQLite file.

const CATALOG_CLI = fileURLToPath(new URL('../src/catalog-cli.ts', import.meta.url));
const ADMIN_CLI = fileURLToPath(new URL('../src/admin-cli.ts', import.meta.url));
const TOKEN_SERVER = fileURLToPath(new URL('../../auth-server/src/main.ts', import.meta.url));

const PASSWORD = 'an operator typed this long password';
const OPERATOR = { kind: 'operator', name: 'operator-cli' };

const catalog = (dataDir: string, args: string[]) =>
  runToExit({ entry: CATALOG_CLI, args: [...args, '--data-dir', dataDir], env: {} });

const admin = (dataDir: string, args: string[], stdin = '') =>
  runToExit({ entry: ADMIN_CLI, args, stdin, env: { DATA_DIR: dataDir } });

/** `pnpm admin audit …` in this process: it only reads, and the tests read the trail often. */
const readAudit = (dataDir: string, args: string[]) =>
  runAdminInProcess(['audit', ...args, '--data-dir', dataDir]);

/** `pnpm admin audit --json …`: one event per line, newest first. */
async function audit(dataDir: string, args: string[] = []): Promise<AuditEvent[]> {
  const result = await readAudit(dataDir, ['--json', '--limit', '1000', ...args]);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AuditEvent);
}

/** What the command recorded: the events but their id and time, which the store assigns. */
const recorded = (events: AuditEvent[]) => events.map(({ id: _id, occurredAt: _at, ...rest }) => rest);

const products = (count: number, name: string) =>
  Array.from({ length: count }, (_, index) =>
    JSON.stringify({ productCode: `AUDIT-${index}`, name: `${name} ${index}` }),
  ).join('\n');

let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'operator-audit-'));
  // As an operator does first: the token server creates the database and the signing keys.
  const tokenServer = await spawnService({
    entry: TOKEN_SERVER,
    env: { DATA_DIR: dataDir, AUTH_SERVER_PORT: '0' },
  });
  expect(await tokenServer.stop()).toBe(0);
});

afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('operator commands record their audit events as operator-cli (issue 18)', () => {
  it('users add records admin-user.create and users disable admin-user.disable, with the email and groups only, and disable says issued ID tokens are refused at once', async () => {
    const added = await admin(
      dataDir,
      ['users', 'add', '--email', 'ops@example.com', '--group', 'admin', '--group', 'ops'],
      PASSWORD,
    );
    expect(added.code).toBe(0);
    const userId = added.stdout.trim();
    const disabled = await admin(dataDir, ['users', 'disable', '--email', 'ops@example.com']);
    expect(disabled.code).toBe(0);
    // The catalog API reads the account on every request: a disabled admin's tokens stop at once.
    expect(disabled.stderr).toBe(
      'disabled ops@example.com: no new sign-in, and the catalog API refuses its ID tokens already issued from the next request\n',
    );
    expect(disabled.stderr).not.toMatch(/expire within/);
    // Disabling an account already disabled changes nothing and records nothing.
    expect((await admin(dataDir, ['users', 'disable', '--email', 'ops@example.com'])).code).toBe(0);

    const events = await audit(dataDir, ['--target-type', 'admin-user', '--target-id', userId]);
    expect(recorded(events)).toEqual([
      {
        actor: OPERATOR,
        sourceIp: null,
        requestId: null,
        action: 'admin-user.disable',
        target: { type: 'admin-user', id: userId },
        details: { email: 'ops@example.com' },
      },
      {
        actor: OPERATOR,
        sourceIp: null,
        requestId: null,
        action: 'admin-user.create',
        target: { type: 'admin-user', id: userId },
        details: { email: 'ops@example.com', groups: 'admin,ops' },
      },
    ]);
  });

  it('keys rotate records signing-key.stage, then with --force signing-key.promote, naming the key it printed', async () => {
    const staged = await admin(dataDir, ['keys', 'rotate']);
    expect(staged.code).toBe(0);
    const kid = /^staged (\S+)\n$/.exec(staged.stdout)?.[1] ?? '';
    const promoted = await admin(dataDir, ['keys', 'rotate', '--force']);
    expect(promoted.code).toBe(0);
    expect(promoted.stdout).toBe(`active ${kid}\n`);

    const events = await audit(dataDir, ['--target-type', 'signing-key']);
    expect(recorded(events)).toEqual([
      {
        actor: OPERATOR,
        sourceIp: null,
        requestId: null,
        action: 'signing-key.promote',
        target: { type: 'signing-key', id: kid },
        details: { retiredKid: expect.any(String), retiredUntil: expect.any(String) },
      },
      {
        actor: OPERATOR,
        sourceIp: null,
        requestId: null,
        action: 'signing-key.stage',
        target: { type: 'signing-key', id: kid },
        details: { promoteAfter: expect.any(String) },
      },
    ]);
    // Key ids only: never key material.
    expect(JSON.stringify(events)).not.toMatch(/"(d|x|y|privateJwk)"/);
  });

  it('import records one catalogue.import-batch per written batch of 5,000, with its counts', async () => {
    const file = join(dataDir, 'import.ndjson');
    writeFileSync(file, `${products(5001, 'Imported')}\n`);
    expect((await catalog(dataDir, ['import', file])).code).toBe(0);
    writeFileSync(file, `${products(3, 'More')}\n`);
    expect((await catalog(dataDir, ['import', file])).code).toBe(0);

    const events = await audit(dataDir, ['--action', 'catalogue.import-batch']);
    expect(recorded(events)).toEqual(
      [
        { created: 5000, updated: 0 },
        { created: 1, updated: 0 },
        { created: 3, updated: 0 },
      ]
        .toReversed()
        .map((details) => ({
          actor: OPERATOR,
          sourceIp: null,
          requestId: null,
          action: 'catalogue.import-batch',
          target: { type: 'catalogue', id: null },
          details,
        })),
    );
  });

  it('an import refused for bad records writes nothing and records nothing', async () => {
    const before = await audit(dataDir);
    const file = join(dataDir, 'bad.ndjson');
    writeFileSync(file, '{"productCode":"","name":"No code"}\n');
    expect((await catalog(dataDir, ['import', file])).code).toBe(1);
    expect(await audit(dataDir)).toEqual(before);
  });

  it('seed records catalogue.seed with the products asked for, the seed and the counts', async () => {
    expect((await catalog(dataDir, ['seed', '--products', '30', '--seed', 'audit'])).code).toBe(0);
    expect(recorded(await audit(dataDir, ['--action', 'catalogue.seed']))).toEqual([
      {
        actor: OPERATOR,
        sourceIp: null,
        requestId: null,
        action: 'catalogue.seed',
        target: { type: 'catalogue', id: null },
        details: { products: 30, seed: 'audit', created: 30, updated: 0 },
      },
    ]);
  });

  it('migrate records catalogue.migrate with the versions when it applied migrations, and nothing when there were none', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'operator-audit-migrate-'));
    try {
      const first = await catalog(fresh, ['migrate']);
      expect(first.code).toBe(0);
      const toVersion = Number(/now at version (\d+)/.exec(first.stdout)?.[1]);
      expect((await catalog(fresh, ['migrate'])).stdout).toContain('nothing to do');
      expect(recorded(await audit(fresh))).toEqual([
        {
          actor: OPERATOR,
          sourceIp: null,
          requestId: null,
          action: 'catalogue.migrate',
          target: { type: 'catalogue', id: null },
          details: { fromVersion: 0, toVersion, searchDocumentsWritten: 0 },
        },
      ]);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});

describe('pnpm admin audit (read-only)', () => {
  it('lists newest first and filters by actor, action, target and time', async () => {
    const all = await audit(dataDir);
    // The events the tests above recorded (imports now write batches of 5,000: three import events).
    expect(all.length).toBeGreaterThanOrEqual(8);
    const ids = all.map((event) => Number(event.id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    expect(await audit(dataDir, ['--actor', 'operator-cli'])).toEqual(all);
    expect(await audit(dataDir, ['--actor', 'nobody@example.com'])).toEqual([]);
    expect(await audit(dataDir, ['--action', 'catalogue.seed'])).toEqual(
      all.filter((event) => event.action === 'catalogue.seed'),
    );
    const userId = all.find((event) => event.action === 'admin-user.create')?.target.id ?? '';
    expect(await audit(dataDir, ['--target-id', userId])).toEqual(
      all.filter((event) => event.target.id === userId),
    );

    const pivot = all.find((event) => event.action === 'signing-key.promote') as AuditEvent;
    const since = await audit(dataDir, ['--since', pivot.occurredAt]);
    expect(since).toContainEqual(pivot);
    expect(since).toEqual(all.filter((event) => event.occurredAt >= pivot.occurredAt));
    const until = await audit(dataDir, ['--until', pivot.occurredAt]);
    expect(until).toEqual(all.filter((event) => event.occurredAt < pivot.occurredAt));
  });

  it('pages with --limit and --before, printing the next --before on stderr while older events match', async () => {
    const all = await audit(dataDir);
    const seen: AuditEvent[] = [];
    let before: string[] = [];
    for (;;) {
      const page = await readAudit(dataDir, ['--json', '--limit', '4', ...before]);
      expect(page.code).toBe(0);
      const events = page.stdout
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as AuditEvent);
      expect(events.length).toBeLessThanOrEqual(4);
      seen.push(...events);
      const next = /run again with --before (\d+)/.exec(page.stderr)?.[1];
      if (next === undefined) {
        expect(page.stderr).toBe('');
        break;
      }
      expect(next).toBe(events.at(-1)?.id);
      before = ['--before', next];
    }
    expect(seen).toEqual(all);
  });

  it('prints an aligned table: time, action, actor, target, source IP, request id, then changes and details', async () => {
    const result = await admin(dataDir, ['audit', '--action', 'admin-user.create']);
    expect(result.code).toBe(0);
    const [header, row, ...rest] = result.stdout.trimEnd().split('\n');
    expect(rest).toEqual([]);
    expect(header).toMatch(/^TIME +ACTION +ACTOR +TARGET +SOURCE IP +REQUEST ID +CHANGES \/ DETAILS$/);
    expect(row).toMatch(
      /^\d{4}-\d{2}-\d{2}T\S+Z +admin-user\.create +operator-cli +admin-user:\S+ +- +- +email=ops@example\.com; groups=admin,ops$/,
    );
    // Aligned: each column starts at the same offset in the header and the row.
    for (const column of ['ACTION', 'ACTOR', 'TARGET', 'SOURCE IP', 'REQUEST ID', 'CHANGES']) {
      const at = header?.indexOf(column) ?? -1;
      expect(row?.slice(at - 2, at)).toBe('  ');
      expect(row?.[at]).not.toBe(' ');
    }
  });

  it("shows an update's changes as old → new and escapes control characters an administrator typed", async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'operator-audit-table-'));
    const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: fresh }, undefined), {
      searchWorkers: 1,
    });
    try {
      // As the catalog API records a client update made with an administrator's ID token.
      await store.audit.append({
        actor: { kind: 'admin', userId: 'admin-sub-1', email: 'ops@example.com' },
        sourceIp: '198.51.100.7',
        requestId: 'req-update-0001',
        action: 'client.update',
        target: { type: 'client', id: 'CLIENT0000000000000000001' },
        changes: {
          scopes: { from: ['products.read'], to: ['products.read', 'brands.read'] },
          clientName: { from: 'Web shop', to: 'Web\u001b[2Jshop\u202e' },
        },
      });
    } finally {
      await store.close();
    }
    try {
      const table = await admin(fresh, ['audit']);
      expect(table.code).toBe(0);
      const row = table.stdout.split('\n')[1] ?? '';
      expect(row).toMatch(
        /^\S+ +client\.update +ops@example\.com +client:CLIENT0000000000000000001 +198\.51\.100\.7 +req-update-0001 +/,
      );
      expect(row).toContain(
        'scopes: ["products.read"] → ["products.read","brands.read"]; clientName: Web shop → Web\\u001b[2Jshop\\u202e',
      );
      const json = await readAudit(fresh, ['--json']);
      expect(json.stdout).not.toContain('\u001b');
      expect(json.stdout).not.toContain('\u202e');
      expect(JSON.parse(json.stdout).changes.clientName.to).toBe('Web\u001b[2Jshop\u202e');
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('never prints a password or a password hash, in the table or as JSON', async () => {
    const store = await openCatalogue(selectEngines({ engine: 'sqlite', dataDir: dataDir }, undefined), {
      searchWorkers: 1,
    });
    let hash: string;
    try {
      hash = (await store.adminUsers.getByEmail('ops@example.com'))?.passwordHash ?? '';
    } finally {
      await store.close();
    }
    expect(hash).toMatch(/scrypt/);
    const salt = hash.split('$').at(-2) ?? '';
    for (const args of [[], ['--json']]) {
      const result = await readAudit(dataDir, args);
      expect(result.code).toBe(0);
      for (const secret of [PASSWORD, hash, salt, 'scrypt'])
        expect(`${result.stdout}${result.stderr}`).not.toContain(secret);
    }
  });

  it('refuses bad options with exit code 2 and a message naming the option; nothing is changed', async () => {
    const before = await audit(dataDir);
    const cases: Array<[string[], RegExp]> = [
      [['--limit', '0'], /--limit/],
      [['--limit', '1001'], /--limit/],
      [['--limit', 'ten'], /--limit/],
      [['--action', 'client.delete'], /--action.*one of/],
      [['--target-type', 'user'], /--target-type/],
      [['--since', 'yesterday'], /--since.*ISO 8601/],
      [['--until', '2025-01-31T12:00:00'], /--until.*zone/],
      [['--since', '2025-02-01', '--until', '2025-01-01'], /--since must be earlier than --until/],
      [['--before', 'abc'], /--before/],
      [['--actor', ''], /--actor/],
      [['--frobnicate'], /unknown option/],
    ];
    for (const [args, message] of cases) {
      const result = await readAudit(dataDir, args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout, args.join(' ')).toBe('');
      expect(result.stderr, args.join(' ')).toMatch(message);
    }
    // The same refusal from the real process: its exit code and streams.
    const spawned = await admin(dataDir, ['audit', '--limit', '0']);
    expect(spawned.code).toBe(2);
    expect(spawned.stdout).toBe('');
    expect(spawned.stderr).toMatch(/--limit/);
    const missing = await admin(join(dataDir, 'no-such-dir'), ['audit']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no catalogue database');
    expect(await audit(dataDir)).toEqual(before);
  });

  it('has no command that edits or deletes an event', async () => {
    const auditHelp = await runAdminInProcess(['audit', '--help']);
    expect(auditHelp.code).toBe(0);
    expect(auditHelp.stdout).toMatch(/^Usage: admin audit \[options\]\n/);
    expect(auditHelp.stdout).not.toContain('Commands:');
    const top = await runAdminInProcess(['--help']);
    const commands = top.stdout.slice(top.stdout.indexOf('Commands:'));
    expect([...commands.matchAll(/^ {2}(\S+)/gm)].map((match) => match[1])).toEqual([
      'users',
      'token',
      'keys',
      'audit',
      'webhooks',
      'help',
    ]);
    for (const verb of ['delete', 'edit', 'remove']) {
      expect((await readAudit(dataDir, [verb, '1'])).code).toBe(2);
    }
  });
});

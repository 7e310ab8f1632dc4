import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { canonicalEmail, NotFoundError, ValidationError } from '../../src/index.ts';
import type { RecordStoreFactory, RecordStoreHandle, StoreLocation } from '../../src/testing/index.ts';
import { openStoreAt } from '../../src/testing/index.ts';

/** Spellings of one email that its canonical form makes one (src/model/admin-email.ts). */
const SPELLINGS_OF_ONE_EMAIL: ReadonlyArray<readonly [string, string]> = [
  ['Iris@Example.com', 'iris@example.com'],
  ['IRIS@EXAMPLE.COM', 'iris@example.com'],
  [' iris@example.com\u3000', 'iris@example.com'],
  ['ｉｒｉｓ＠ｅｘａｍｐｌｅ．ｃｏｍ', 'iris@example.com'],
  ['\u212Aim@example.com', 'kim@example.com'],
  ['KIM@example.com', 'kim@example.com'],
  ['ſam@example.com', 'sam@example.com'],
  ['SAM@example.com', 'sam@example.com'],
  ['STRASSE@example.com', 'strasse@example.com'],
  ['STRA\u1E9EE@example.com', 'straße@example.com'],
];

/** Rows as a store written before emails were canonical left them, straight into the tables. */
async function insertRows(location: StoreLocation, rows: ReadonlyArray<{ id: string; email: string }>) {
  const values = rows.map(({ id, email }) => [id, email, 'scrypt$old', '[]', 1, 1]);
  const insert = 'INSERT INTO admin_users (id, email, password_hash, groups, created_at, updated_at)';
  if (location.engine === 'sqlite') {
    const db = new DatabaseSync(location.databasePath);
    try {
      for (const row of values) db.prepare(`${insert} VALUES (?, ?, ?, ?, ?, ?)`).run(...row);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  try {
    await client.query(`SET search_path TO ${location.schema}`);
    for (const row of values) await client.query(`${insert} VALUES ($1, $2, $3, $4, $5, $6)`, row);
  } finally {
    await client.end();
  }
}

export function adminUserStoreContract(factory: RecordStoreFactory): void {
  describe('AdminUserStore', () => {
    let handle: RecordStoreHandle;
    beforeEach(async () => {
      handle = await factory();
    });
    afterEach(async () => handle.dispose());

    it('finds a user by email whatever its case and refuses a duplicate', async () => {
      const user = await handle.store.adminUsers.create({
        email: 'Ada@Example.com',
        passwordHash: 'scrypt$x',
        groups: ['admin'],
      });
      expect(await handle.store.adminUsers.getByEmail('ada@example.COM')).toEqual(user);
      await expect(
        handle.store.adminUsers.create({ email: 'ADA@example.com', passwordHash: 'y', groups: [] }),
      ).rejects.toBeInstanceOf(ValidationError);
    });

    it('stores an email in its one canonical form, and every spelling of that form finds the same account', async () => {
      const users = handle.store.adminUsers;
      const canonical = [...new Set(SPELLINGS_OF_ONE_EMAIL.map(([, form]) => form))];
      const created = new Map<string, string>();
      for (const email of canonical) {
        const spelling = SPELLINGS_OF_ONE_EMAIL.find(([, form]) => form === email)?.[0] as string;
        const user = await users.create({ email: spelling, passwordHash: 'h', groups: [] });
        expect(user.email).toBe(email);
        created.set(email, user.id);
      }
      for (const [spelling, form] of SPELLINGS_OF_ONE_EMAIL) {
        expect(canonicalEmail(spelling)).toBe(form);
        expect((await users.getByEmail(spelling))?.id, spelling).toBe(created.get(form));
        await expect(
          users.create({ email: spelling, passwordHash: 'h', groups: [] }),
          spelling,
        ).rejects.toBeInstanceOf(ValidationError);
      }
      expect((await users.list()).map((user) => user.email)).toEqual([...canonical].sort());
    });

    it('tells İ (U+0130) from I and ß from ss: each is another email, which finds no account but its own', async () => {
      const users = handle.store.adminUsers;
      const iris = await users.create({ email: 'iris@example.com', passwordHash: 'h', groups: [] });
      const strasse = await users.create({ email: 'strasse@example.com', passwordHash: 'h', groups: [] });
      expect(await users.getByEmail('İris@example.com')).toBeUndefined();
      expect(await users.getByEmail('İRIS@example.com')).toBeUndefined();
      expect(await users.getByEmail('straße@example.com')).toBeUndefined();
      const dotted = await users.create({ email: 'İris@example.com', passwordHash: 'h', groups: [] });
      expect(dotted.email).toBe('i\u0307ris@example.com');
      expect((await users.getByEmail('İris@example.com'))?.id).toBe(dotted.id);
      expect((await users.getByEmail('iris@example.com'))?.id).toBe(iris.id);
      expect((await users.getByEmail('STRASSE@example.com'))?.id).toBe(strasse.id);
    });

    it('rewrites emails stored before they were canonical when the store opens, leaving one whose form is taken', async () => {
      await handle.store.adminUsers.create({ email: 'pat@example.com', passwordHash: 'h', groups: [] });
      await insertRows(handle.location, [
        { id: 'old-olga', email: 'Olga@Example.COM' },
        { id: 'old-kelvin', email: '\u212Aai@example.com' },
        { id: 'old-pat', email: 'ｐａｔ@example.com' },
      ]);
      const reopened = await openStoreAt(JSON.stringify(handle.location));
      try {
        expect(await reopened.adminUsers.getByEmail('olga@example.com')).toMatchObject({
          id: 'old-olga',
          email: 'olga@example.com',
        });
        expect(await reopened.adminUsers.getByEmail('KAI@example.com')).toMatchObject({
          id: 'old-kelvin',
          email: 'kai@example.com',
        });
        expect((await reopened.adminUsers.getByEmail('ｐａｔ@example.com'))?.id).not.toBe('old-pat');
        expect(await reopened.adminUsers.get('old-pat')).toMatchObject({ email: 'ｐａｔ@example.com' });
      } finally {
        await reopened.close();
      }
    });

    it('changes the password hash and groups', async () => {
      const user = await handle.store.adminUsers.create({
        email: 'b@example.com',
        passwordHash: 'h1',
        groups: [],
      });
      const updated = await handle.store.adminUsers.update(user.id, {
        passwordHash: 'h2',
        groups: ['admin'],
      });
      expect(updated).toMatchObject({ passwordHash: 'h2', groups: ['admin'] });
      expect(await handle.store.adminUsers.list()).toEqual([updated]);
      await expect(handle.store.adminUsers.update('missing', { groups: [] })).rejects.toBeInstanceOf(
        NotFoundError,
      );
    });
  });
}

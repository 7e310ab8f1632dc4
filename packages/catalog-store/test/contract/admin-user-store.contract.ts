import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundError, ValidationError } from '../../src/index.ts';
import type { RecordStoreFactory, RecordStoreHandle } from '../support/store-factory.ts';

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

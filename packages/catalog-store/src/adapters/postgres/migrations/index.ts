import type { Migration } from '../../migration.ts';
import { initialSchema } from './0001-initial-schema.ts';
import { signingKeySet } from './0002-signing-key-set.ts';

export const MIGRATIONS: readonly Migration[] = [initialSchema, signingKeySet];

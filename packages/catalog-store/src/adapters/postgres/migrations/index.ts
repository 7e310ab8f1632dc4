import type { Migration } from '../../migration.ts';
import { initialSchema } from './0001-initial-schema.ts';

export const MIGRATIONS: readonly Migration[] = [initialSchema];

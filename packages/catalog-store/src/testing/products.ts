import { randomUUID } from 'node:crypto';
import type { ProductInput } from '../index.ts';

let counter = 0;

/** A minimal valid product; every call gets a distinct code. */
export function aProduct(overrides: Partial<ProductInput> = {}): ProductInput {
  counter += 1;
  return {
    id: randomUUID(),
    productCode: `T-${String(counter).padStart(6, '0')}`,
    name: `Test product ${counter}`,
    ...overrides,
  };
}

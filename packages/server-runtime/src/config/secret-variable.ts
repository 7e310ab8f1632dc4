import type { z } from 'zod';

const secrets = new WeakSet<z.ZodType>();

/** Marks a variable's schema as holding a secret: its value is never printed, even when invalid. */
export function secretVariable<T extends z.ZodType>(schema: T): T {
  secrets.add(schema);
  return schema;
}

interface Wrapper {
  readonly _zod: { readonly def: { readonly innerType?: z.ZodType; readonly in?: z.ZodType } };
}

/** Whether the schema, or one it wraps (optional, default, pipe…), was marked with `secretVariable`. */
export function isSecretVariable(schema: z.ZodType | undefined): boolean {
  let current = schema;
  while (current !== undefined) {
    if (secrets.has(current)) return true;
    const { def } = (current as unknown as Wrapper)._zod;
    current = def.innerType ?? def.in;
  }
  return false;
}

interface Composite {
  readonly _zod: {
    readonly def: {
      readonly shape?: Record<string, z.ZodType>;
      readonly left?: z.ZodType;
      readonly right?: z.ZodType;
      readonly in?: z.ZodType;
    };
  };
}

/** The names of the secret variables of an environment schema (objects joined with `.and`). */
export function secretVariableNames(schema: z.ZodType): Set<string> {
  const names = new Set<string>();
  const visit = (node: z.ZodType | undefined) => {
    if (node === undefined) return;
    const { def } = (node as unknown as Composite)._zod;
    for (const [name, field] of Object.entries(def.shape ?? {})) {
      if (isSecretVariable(field)) names.add(name);
    }
    visit(def.left);
    visit(def.right);
    visit(def.in);
  };
  visit(schema);
  return names;
}

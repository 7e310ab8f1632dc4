import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { standaloneBodyValidators } from '@catalog/contracts/standalone-body-validators';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_FIELD_LABELS } from '../src/domain/clients.ts';
import { type BodyValidator, checkBody } from '../src/domain/form-checks.ts';

// The very module the console's build bundles (vite/request-validators.ts), imported as Node imports
// it: from a file where `ajv` resolves, as the bundler resolves it from the console's package.
let validators: Record<string, BodyValidator>;
beforeAll(async () => {
  const directory = new URL('../node_modules/.cache/form-checks/', import.meta.url);
  mkdirSync(directory, { recursive: true });
  const file = new URL('request-validators.mjs', directory);
  writeFileSync(
    file,
    standaloneBodyValidators(['createM2MClient', 'updateM2MClient', 'createWebChannel', 'updateWebChannel']),
  );
  validators = await import(fileURLToPath(file));
});

describe("forms are checked in the browser with the API's own schema and reasons", () => {
  it('a valid client passes, and nothing is reported', () => {
    const body = { clientName: 'ERP sync', scopes: ['products.read'], expiresInDays: 365 };
    expect(checkBody(validators.createM2MClient as BodyValidator, body, CLIENT_FIELD_LABELS)).toEqual({});
  });

  it('"Acme Corp. ERP" is refused naming the full stop, and 400 days naming the maximum, each under its label', () => {
    const body = { clientName: 'Acme Corp. ERP', scopes: ['products.read'], expiresInDays: 400 };
    expect(checkBody(validators.createM2MClient as BodyValidator, body, CLIENT_FIELD_LABELS)).toEqual({
      clientName: [
        'Client name must not contain “.”: it must be letters, digits, hyphens and underscores, in words separated by single spaces.',
      ],
      expiresInDays: ['Expires in (days) must be at most 365.'],
    });
  });

  it('a name counts characters as the API does (by code point) and says the limit', () => {
    const body = { clientName: 'ab', scopes: ['products.read'] };
    expect(checkBody(validators.createM2MClient as BodyValidator, body, CLIENT_FIELD_LABELS)).toEqual({
      clientName: ['Client name must be at least 3 characters long.'],
    });
  });

  it('an update without scopes is refused as the API refuses it', () => {
    expect(
      checkBody(validators.updateM2MClient as BodyValidator, { scopes: [] }, CLIENT_FIELD_LABELS),
    ).toEqual({ scopes: ['Scopes must have at least 1 item.'] });
  });

  it('a channel slug with an upper-case letter and an underscore names both', () => {
    const labels = { slug: 'Slug', name: 'Name' };
    const problems = checkBody(
      validators.createWebChannel as BodyValidator,
      { slug: 'EU_shop', name: 'EU shop' },
      labels,
    );
    expect(problems.slug?.[0]).toMatch(/^Slug must not contain “E”, “U”, “_”: it must be lower-case letters/);
    expect(problems.name).toBeUndefined();
  });
});

// Authorization headers the catalog API may receive, each with the answer it must get: the valid
// credentials of an M2M client and an administrator, and every way of getting them wrong (spec 5 rule 1,
// 7.1 401/403, decisions: Identity).
import type { AccessRule } from '@catalog/contracts';
import type { TokenForge } from '../support/forged-tokens.ts';

/**
 * `unauthenticated`: 401 on every protected route. `forbidden`: 403 on every protected route. The
 * others are valid callers: `m2m` (every scope), `m2mBrandsOnly` (brands.read only) and `admin`.
 */
export type CallerKind = 'unauthenticated' | 'forbidden' | 'm2m' | 'm2mBrandsOnly' | 'admin';

export interface Caller {
  readonly name: string;
  /** The Authorization header, or undefined to send none. */
  readonly header: string | undefined;
  readonly kind: CallerKind;
}

export interface CallerInputs {
  readonly forge: TokenForge;
  /** Access token of a client holding every grantable scope. */
  readonly m2m: string;
  readonly m2mClientId: string;
  /** Access token of a client holding brands.read only. */
  readonly m2mBrandsOnly: string;
  /** Unexpired access token of a revoked client. */
  readonly revoked: string;
  /** An administrator's ID token from the real login flow. */
  readonly admin: string;
}

const flip = (token: string, at: number) => {
  const index = ((at % token.length) + token.length) % token.length;
  const swapped = token[index] === 'A' ? 'B' : 'A';
  return `${token.slice(0, index)}${swapped}${token.slice(index + 1)}`;
};

export function callers(inputs: CallerInputs): Caller[] {
  const { forge, m2m, admin } = inputs;
  const now = Math.floor(Date.now() / 1000);
  const claims = { clientId: inputs.m2mClientId, scope: 'crm-api/products.read crm-api/brands.read' };
  const [head = '', payload = ''] = m2m.split('.');
  const bad = (name: string, header: string | undefined): Caller => ({
    name,
    header,
    kind: 'unauthenticated',
  });
  return [
    { name: 'M2M token, every scope', header: `Bearer ${m2m}`, kind: 'm2m' },
    { name: 'M2M token, brands.read only', header: `Bearer ${inputs.m2mBrandsOnly}`, kind: 'm2mBrandsOnly' },
    { name: 'admin ID token', header: `Bearer ${admin}`, kind: 'admin' },
    bad('no Authorization header', undefined),
    bad('empty header', ''),
    bad('scheme only', 'Bearer'),
    bad('scheme and a space', 'Bearer '),
    bad('lower-case bearer', `bearer ${m2m}`),
    bad('upper-case BEARER', `BEARER ${m2m}`),
    bad('quoted token', `Bearer "${m2m}"`),
    bad('two spaces', `Bearer  ${m2m}`),
    bad('token twice', `Bearer ${m2m} ${m2m}`),
    bad('comma list', `Bearer ${m2m}, Bearer ${m2m}`),
    bad('Basic scheme', `Basic ${Buffer.from(`${inputs.m2mClientId}:secret`).toString('base64')}`),
    bad('Token scheme', `Token ${m2m}`),
    bad('token without scheme', m2m),
    bad('signature tampered', `Bearer ${flip(m2m, -5)}`),
    bad('payload tampered', `Bearer ${flip(m2m, head.length + 10)}`),
    bad('signature removed', `Bearer ${head}.${payload}.`),
    bad('two segments', `Bearer ${head}.${payload}`),
    bad('four segments', `Bearer ${m2m}.${payload}`),
    bad('garbage', 'Bearer abc.def.ghi'),
    bad('not base64url', 'Bearer ***.***.***'),
    bad('huge token', `Bearer ${'a'.repeat(8_000)}.${'b'.repeat(100)}.${'c'.repeat(86)}`),
    bad('header JSON not an object', `Bearer ${Buffer.from('[1]').toString('base64url')}.${payload}.AAAA`),
    bad(
      'alg none',
      `Bearer ${forge.unsigned({ ...claims, iss: forge.issuer, aud: 'crm-api', exp: now + 600 })}`,
    ),
    bad('HS256 keyed with the public key', `Bearer ${forge.hmacWithPublicKey({ sub: 'x', aud: 'crm-api' })}`),
    bad(
      'signed with a key the server never published',
      `Bearer ${forge.foreignKey(
        {
          iss: forge.issuer,
          sub: 'x',
          client_id: 'x',
          aud: 'crm-api',
          scope: claims.scope,
          iat: now,
          exp: now + 600,
        },
        { typ: 'at+jwt' },
      )}`,
    ),
    bad(
      'expired access token',
      `Bearer ${forge.accessToken({ ...claims, iat: now - 7_200, exp: now - 3_600 })}`,
    ),
    bad('not yet valid', `Bearer ${forge.accessToken({ ...claims, nbf: now + 3_600 })}`),
    bad('another issuer', `Bearer ${forge.accessToken({ ...claims, iss: 'https://evil.example' })}`),
    bad('another audience', `Bearer ${forge.accessToken({ ...claims, aud: 'other-api' })}`),
    bad('no exp', `Bearer ${forge.accessToken({ ...claims, exp: undefined })}`),
    bad('no client_id', `Bearer ${forge.accessToken({ ...claims, client_id: undefined })}`),
    bad('scope not a string', `Bearer ${forge.accessToken({ ...claims, scope: ['crm-api/products.read'] })}`),
    bad('access token without typ', `Bearer ${forge.accessToken(claims, { typ: undefined })}`),
    bad('access token typ JWT', `Bearer ${forge.accessToken(claims, { typ: 'JWT' })}`),
    bad('ID token with typ at+jwt', `Bearer ${forge.idToken({}, { typ: 'at+jwt' })}`),
    bad('ID token for another client', `Bearer ${forge.idToken({ aud: 'some-client' })}`),
    bad('expired ID token', `Bearer ${forge.idToken({ iat: now - 7_200, exp: now - 3_600 })}`),
    bad('ID token signed with another key', `Bearer ${forge.foreignKey({ sub: 'x', aud: 'catalog-admin' })}`),
    bad(
      'ID token, alg none',
      `Bearer ${forge.unsigned({ sub: 'x', aud: 'catalog-admin', groups: ['admin'] }, { typ: undefined })}`,
    ),
    bad('ID token, sub not a string', `Bearer ${forge.idToken({ sub: 42 })}`),
    { name: 'revoked client token', header: `Bearer ${inputs.revoked}`, kind: 'forbidden' },
    {
      name: 'token of a client that does not exist',
      header: `Bearer ${forge.accessToken({ clientId: 'FuzzUnknownClient000000000', scope: claims.scope })}`,
      kind: 'forbidden',
    },
    {
      name: 'ID token without the admin group',
      header: `Bearer ${forge.idToken({ groups: [] })}`,
      kind: 'forbidden',
    },
    {
      name: 'ID token, groups a string',
      header: `Bearer ${forge.idToken({ groups: 'admin' })}`,
      kind: 'forbidden',
    },
  ];
}

/**
 * The statuses a caller may get from an operation with that access rule when the rest of the request is
 * valid; undefined when authorisation passes (the route's own answers then apply).
 */
export function expectedAuthStatus(caller: CallerKind, access: AccessRule, path: string): number | undefined {
  if (access.kind === 'public') return undefined;
  if (caller === 'unauthenticated') return 401;
  if (caller === 'forbidden') return 403;
  if (path.startsWith('/clients')) return caller === 'admin' ? 404 : 403;
  if (caller === 'admin') return undefined;
  if (access.kind === 'admin') return 403;
  if (caller === 'm2mBrandsOnly' && access.scope !== 'brands.read') return 403;
  return undefined;
}

// Bad input on the token server's token endpoint (POST {auth_url}/oauth2/token), against the built
// server: random and malformed form bodies, credentials sent every wrong way, scopes of every wrong
// shape, wrong content types. Every answer: no 5xx, the body of the token server's document; a token is
// issued only to the right credentials for granted scopes, always for this API; a well-formed request
// always gets one; nothing stored changes on a refusal.
import { ACCESS_TOKEN_AUDIENCE, ACCESS_TOKEN_TYPE, type GrantableScope } from '@catalog/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenReplyProblems } from '../support/contract-check.ts';
import { describeCall, type RawCall, rawCall } from '../support/raw-http.ts';
import { report } from '../support/settings.ts';
import { type Credentials, type E2EStack, startE2EStack } from '../support/stack.ts';
import { openStoreGuard, type StoreGuard } from '../support/store-guard.ts';
import { BAD_PERCENT, NASTY_STRINGS } from './inputs.ts';
import { runProperty } from './run-property.ts';

const GRANTED: GrantableScope[] = ['products.read', 'brands.read'];
const FORM = 'application/x-www-form-urlencoded';

let stack: E2EStack;
let guard: StoreGuard;
let valid: Credentials;
let revoked: Credentials;
let otherTokens: { admin: string; access: string };

beforeAll(async () => {
  // Thousands of requests from one address for one client: far past the token server's rate limits,
  // which are off here so every answer is the endpoint's own.
  stack = await startE2EStack({
    demoProducts: 20,
    env: { TOKEN_RATE_LIMIT_IP_PER_MIN: '0', TOKEN_RATE_LIMIT_CLIENT_PER_MIN: '0' },
  });
  valid = await stack.createClient(GRANTED);
  revoked = await stack.createClient(GRANTED);
  const admin = await stack.adminIdToken();
  otherTokens = { admin, access: await stack.accessToken(valid) };
  const revocation = await stack.api(`/oauth/clients/${revoked.clientId}`, {
    method: 'DELETE',
    token: admin,
  });
  if (revocation.status !== 200) throw new Error(`revocation → ${revocation.status}`);
  guard = await openStoreGuard(stack.location);
});
afterAll(async () => {
  await guard?.close();
  await stack?.stop();
});

/** A value marked with whether it is the right one (the valid client's, a granted scope list…). */
interface Marked {
  readonly value: string | undefined;
  readonly right: boolean;
}
const right = (value: string): Marked => ({ value, right: true });
const wrong = (value: string | undefined): Marked => ({ value, right: false });
const nasty = fc.constantFrom(...NASTY_STRINGS).map(wrong);
// Under Node's 16 KB header limit even base64-encoded in a Basic header (beyond it: the HTTP parser's 431).
const huge = fc.integer({ min: 1_000, max: 5_000 }).map((n) => wrong('a'.repeat(n)));

const grantType = fc.oneof(
  { weight: 8, arbitrary: fc.constant(right('client_credentials')) },
  {
    weight: 3,
    arbitrary: fc
      .constantFrom(
        'CLIENT_CREDENTIALS',
        'password',
        'authorization_code',
        'refresh_token',
        ' client_credentials',
        '',
      )
      .map(wrong),
  },
  { weight: 1, arbitrary: fc.constant(wrong(undefined)) },
  { weight: 1, arbitrary: nasty },
);

const clientId = () =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(right(valid.clientId)) },
    {
      weight: 4,
      arbitrary: fc
        .constantFrom(
          revoked.clientId,
          'UnknownClient0000000000000',
          `${valid.clientId} `,
          ` ${valid.clientId}`,
          valid.clientId.toLowerCase(),
          valid.clientId.slice(0, -1),
          '',
          'catalog-admin',
        )
        .map(wrong),
    },
    { weight: 1, arbitrary: nasty },
    { weight: 1, arbitrary: huge },
  );

const clientSecret = () =>
  fc.oneof(
    { weight: 8, arbitrary: fc.constant(right(valid.clientSecret)) },
    {
      weight: 5,
      arbitrary: fc
        .constantFrom(
          revoked.clientSecret,
          `${valid.clientSecret} `,
          ` ${valid.clientSecret}`,
          `${valid.clientSecret}\n`,
          valid.clientSecret.slice(0, -1),
          `${valid.clientSecret}A`,
          valid.clientSecret.toUpperCase(),
          '',
          otherTokens.admin,
          otherTokens.access,
        )
        .map(wrong),
    },
    { weight: 1, arbitrary: nasty },
    { weight: 1, arbitrary: huge },
  );

const prefixed = (scopes: readonly string[]) => scopes.map((scope) => `crm-api/${scope}`);
const scope = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .shuffledSubarray(GRANTED, { minLength: 1 })
      .map((scopes) => right(prefixed(scopes).join(' '))),
  },
  {
    weight: 6,
    arbitrary: fc
      .constantFrom(
        prefixed(GRANTED).join(','),
        prefixed(GRANTED).join('  '),
        prefixed(GRANTED).join('\t'),
        ` ${prefixed(GRANTED).join(' ')}`,
        GRANTED.join(' '),
        'crm-api/Products.read',
        'CRM-API/products.read',
        'crm-api/products.write',
        'crm-api/clients.read',
        'crm-api/quotes.read',
        'crm-api/products.delete',
        'crm-api/',
        'openid',
        'openid crm-api/products.read',
        '',
      )
      .map(wrong),
  },
  { weight: 1, arbitrary: fc.constant(wrong(undefined)) },
  { weight: 1, arbitrary: nasty },
  { weight: 1, arbitrary: huge },
);

/** Form fields the endpoint should ignore (unknown ones), or refuse (a foreign resource). */
const extra = fc.oneof(
  { weight: 6, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constantFrom(['foo', 'bar'] as const, ['audience', 'other-api'] as const) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ['resource', 'https://evil.example'] as const,
      ['resource', 'crm-api'] as const,
      ['client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer'] as const,
    ),
  },
);

const tokenCase = fc.record({
  grantType,
  clientId: fc.constant(null).chain(() => clientId()),
  clientSecret: fc.constant(null).chain(() => clientSecret()),
  scope,
  /** Where the credentials go: the form (client_secret_post), HTTP Basic, both, or nowhere. */
  credentialsIn: fc.constantFrom('form', 'form', 'form', 'basic', 'both', 'none'),
  repeat: fc.constantFrom(undefined, undefined, undefined, undefined, 'grant_type', 'scope', 'client_id'),
  extra,
  shuffle: fc.boolean(),
  badPercent: fc.oneof(
    { weight: 9, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_PERCENT) },
  ),
  contentType: fc.oneof(
    { weight: 8, arbitrary: fc.constant(FORM) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        undefined,
        `${FORM}; charset=utf-8`,
        `${FORM}; charset=latin1`,
        'application/json',
        'text/plain',
        'multipart/form-data; boundary=x',
      ),
    },
  ),
});

type TokenCase = typeof tokenCase extends fc.Arbitrary<infer T> ? T : never;

function requestOf(input: TokenCase): RawCall {
  const fields: Array<[string, string]> = [];
  const put = (name: string, marked: Marked) => {
    if (marked.value !== undefined) fields.push([name, marked.value]);
  };
  put('grant_type', input.grantType);
  if (input.credentialsIn === 'form' || input.credentialsIn === 'both') {
    put('client_id', input.clientId);
    put('client_secret', input.clientSecret);
  }
  put('scope', input.scope);
  if (input.extra !== undefined) fields.push([...input.extra]);
  if (input.repeat !== undefined) {
    const again = fields.find(([name]) => name === input.repeat);
    if (again !== undefined) fields.push(again);
  }
  if (input.shuffle) fields.reverse();
  const headers: Record<string, string> = {};
  if (input.contentType !== undefined) headers['content-type'] = input.contentType;
  if (input.credentialsIn === 'basic' || input.credentialsIn === 'both') {
    const pair = `${encodeURIComponent(input.clientId.value ?? '')}:${encodeURIComponent(input.clientSecret.value ?? '')}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString('base64')}`;
  }
  const body =
    input.contentType === 'application/json'
      ? JSON.stringify(Object.fromEntries(fields))
      : fields.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('&') +
        input.badPercent;
  return { method: 'POST', path: '/oauth2/token', headers, body };
}

/** A request the spec says must succeed: nothing wrong in it. */
function wellFormed(input: TokenCase): boolean {
  return (
    input.grantType.right &&
    input.clientId.right &&
    input.clientSecret.right &&
    input.scope.right &&
    (input.credentialsIn === 'form' || input.credentialsIn === 'basic') &&
    input.repeat === undefined &&
    (input.extra === undefined || input.extra[0] === 'foo' || input.extra[0] === 'audience') &&
    input.badPercent === '' &&
    (input.contentType === FORM || input.contentType === `${FORM}; charset=utf-8`)
  );
}

const decode = (segment: string | undefined) =>
  JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** What a 200 must satisfy: the right client's credentials for granted scopes; a token for this API. */
function issuedTokenProblems(input: TokenCase, body: unknown): string[] {
  const problems: string[] = [];
  if (input.credentialsIn === 'none') problems.push('a token without client credentials');
  if (!input.clientId.right || !input.clientSecret.right) problems.push('a token for wrong credentials');
  if (!input.grantType.right)
    problems.push(`a token for grant_type ${JSON.stringify(input.grantType.value)}`);
  if (!input.scope.right)
    problems.push(`a token for scope ${JSON.stringify(input.scope.value?.slice(0, 80))}`);
  const token = String((body as { access_token?: unknown }).access_token);
  const [head, payload] = token.split('.');
  const header = decode(head);
  const claims = decode(payload);
  if (header.typ !== ACCESS_TOKEN_TYPE) problems.push(`token typ ${String(header.typ)}`);
  if (claims.aud !== ACCESS_TOKEN_AUDIENCE) problems.push(`token audience ${JSON.stringify(claims.aud)}`);
  if (claims.client_id !== valid.clientId) problems.push(`token for client ${String(claims.client_id)}`);
  const granted = new Set(prefixed(GRANTED));
  const issued = String(claims.scope ?? '').split(' ');
  if (issued.some((value) => !granted.has(value))) problems.push(`token scope ${String(claims.scope)}`);
  return problems;
}

describe('bad input on the token endpoint (fuzz)', () => {
  it('[4.3 response][4.3 client_secret][4.3 scope][5 rule 3][7.1 400] malformed and wrong token requests: no 5xx, documented bodies, tokens only for the right credentials and granted scopes, nothing stored changes', async () => {
    const statuses = new Map<number, number>();
    await runProperty('token endpoint', tokenCase, async (input) => {
      const call = requestOf(input);
      const answer = await rawCall(stack.authUrl, stack.dispatcher, call);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      const problems = tokenReplyProblems(answer);
      if (answer.status === 200) problems.push(...issuedTokenProblems(input, answer.body));
      else if (wellFormed(input)) problems.push('a well-formed request was refused');
      const changes = await guard.after(answer.status === 200);
      if (changes.length > 0)
        problems.push(`stored data changed on a refused request:\n    ${changes.join('\n    ')}`);
      if (problems.length > 0) {
        throw new Error(
          `${describeCall(call)}\n  → ${answer.status} ${answer.text.slice(0, 300)}\n  ${problems.join('\n  ')}`,
        );
      }
    });
    report(`token endpoint answers: ${JSON.stringify(Object.fromEntries(statuses))}`);
    // Not vacuous: both outcomes occurred.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    expect(statuses.get(400) ?? 0).toBeGreaterThan(0);
  });
});

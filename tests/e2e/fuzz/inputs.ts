// Generators of bad input for the fuzz suites (fast-check arbitraries): query strings, path
// parameters, request bodies and content types. Each mixes purely random values with the values that
// break parsers in practice (bad percent-encodings, out-of-range numbers, injection-looking strings,
// full-text query syntax, deep nesting, huge sizes).
import fc from 'fast-check';
import type { QueryParameter } from '../support/contract-check.ts';

/** Strings that have broken query parsers, SQL, FTS5, templates or paths somewhere. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '0',
  '-1',
  '-0',
  '1.5',
  '1e309',
  '-1e309',
  '9007199254740993',
  '99999999999999999999999999',
  '0x10',
  '1_000',
  ' 7',
  'NaN',
  'Infinity',
  'null',
  'undefined',
  'true',
  'TRUE',
  'yes',
  '[]',
  '{}',
  "' OR 1=1 --",
  '"; DROP TABLE products; --',
  "') UNION SELECT * FROM m2m_clients --",
  '%',
  '%%',
  '\\',
  '\u0000',
  '<script>alert(1)</script>',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose.
  '${7*7}',
  '../../../../etc/passwd',
  '..%2F..%2F',
  '"unbalanced',
  '"a" NEAR("b", 2)',
  'a AND OR NOT b',
  'name:foo',
  '{name description}: x',
  '^a*',
  '*',
  'a*b',
  '(',
  ')',
  '+-',
  'NOT',
  'product_fts',
  '\u00e9\u0301\ufe0f\u200d',
  '\ud83d\ude00',
  '\ufffd',
  'Crème Brûlée',
  '1970-01-01T00:00:00Z',
  '2024-02-30T25:61:61Z',
  '9999-12-31T23:59:59.999999999+14:00',
  '-271821-04-20T00:00:00Z',
  '2024-01-01',
  '2024-01-01T00:00:00',
  'asc',
  'desc',
  'name',
  'code',
  'updatedAt',
  '__proto__',
  'constructor',
  'prototype',
  'id,__proto__,constructor,toString',
  'id,,,',
];

/** Percent-sequences that are not valid UTF-8, or not valid percent-encoding at all. */
export const BAD_PERCENT: readonly string[] = [
  '%',
  '%2',
  '%zz',
  '%C3%28',
  '%A0%A1',
  '%E2%28%A1',
  '%F0%28%8C%BC',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%C0%AF',
  '%FF',
  '%00',
  '%E0%A4%A',
];

/** Values that look like parameter names but are not, or are names twisted. */
const ODD_NAMES = [
  '',
  '=',
  '__proto__',
  'constructor',
  'q[]',
  'size[0]',
  'Size',
  'SIZE',
  ' q',
  'q ',
  '&',
  'a.b',
];

/** encodeURIComponent, lone surrogates made well-formed first (it throws on them). */
const encode = (value: string) =>
  encodeURIComponent(
    value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'),
  );

/** A value for one query parameter: pool, random unicode, numbers, huge, or raw bad percent-encoding. */
export const queryValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS).map(encode) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }).map(encode) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encode) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double()).map((n) => encode(String(n))) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.string({ maxLength: 8 }), fc.constantFrom(...BAD_PERCENT), fc.string({ maxLength: 8 }))
      .map(([before, bad, after]) => `${encode(before)}${bad}${encode(after)}`),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom('a', '%41', 'é', ' ', '"'), fc.integer({ min: 257, max: 6_000 }))
      .map(([unit, n]) => encode(unit).repeat(n)),
  },
);

/** Product fields, for `fields`: the allowlist, a few internal names and junk. */
const FIELD_NAMES = [
  'id',
  'productCode',
  'name',
  'price',
  'supplierCost',
  'relatedProducts',
  'displayOnWeb',
  'images',
  'updatedAt',
  'internalNote',
  'costPrice',
  'spares',
  '',
  ' name',
  'NAME',
];

/**
 * A value the parameter's schema accepts (enum members, integers in range and at the bounds, dates),
 * so that requests get past validation into the search engine and the projection.
 */
function schemaValue(parameter: QueryParameter): fc.Arbitrary<string> {
  const { schema, name } = parameter;
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as string[]));
  if (schema.type === 'integer') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 10_000;
    return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max)).map(String);
  }
  if (schema.format === 'date-time') {
    return fc
      .date({
        min: new Date('1970-01-01T00:00:00Z'),
        max: new Date('2100-01-01T00:00:00Z'),
        noInvalidDate: true,
      })
      .chain((date) =>
        fc.constantFrom(
          date.toISOString(),
          date.toISOString().replace('Z', '+14:00'),
          date.toISOString().replace('.000Z', 'Z'),
          '1970-01-01T00:00:00Z',
        ),
      );
  }
  if (name === 'fields') {
    return fc.array(fc.constantFrom(...FIELD_NAMES), { maxLength: 6 }).map((fields) => fields.join(','));
  }
  return fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: 30 }),
    fc.constantFrom(
      'KP-000001',
      'kp-000001',
      'torch',
      'Torch 50m',
      'creme brulee',
      'crème',
      'a b c',
      '"',
      '*',
    ),
  );
}

/** A query string (without `?`) mixing documented, repeated and unknown parameters. */
export function queryString(parameters: readonly QueryParameter[]): fc.Arbitrary<string> {
  const known = parameters.map((parameter) => parameter.name);
  const name = fc.oneof(
    ...(known.length > 0 ? [{ weight: 6, arbitrary: fc.constantFrom(...known).map(encode) }] : []),
    { weight: 1, arbitrary: fc.constantFrom(...ODD_NAMES).map(encode) },
    { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map(encode) },
    { weight: 1, arbitrary: fc.constantFrom(...BAD_PERCENT) },
  );
  const validPair =
    parameters.length === 0
      ? fc.constant('')
      : fc
          .constantFrom(...parameters)
          .chain((parameter) =>
            schemaValue(parameter).map((value) => `${encode(parameter.name)}=${encode(value)}`),
          );
  const pair = fc.oneof(
    { weight: 8, arbitrary: validPair },
    { weight: 8, arbitrary: fc.tuple(name, queryValue).map(([n, v]) => `${n}=${v}`) },
    { weight: 1, arbitrary: name },
    { weight: 1, arbitrary: fc.constantFrom('&', '==', '=&=', '?', '#frag', ';') },
  );
  return (
    fc
      .array(pair, { minLength: 1, maxLength: 8 })
      .chain((pairs) =>
        // Repeat some parameters (size=1&size=2): arrays where a string is expected.
        fc.subarray(pairs).map((again) => [...pairs, ...again]),
      )
      .chain((pairs) => fc.shuffledSubarray(pairs, { minLength: pairs.length }))
      .map((pairs) => pairs.join('&'))
      // Stay under Node's 16 KB header limit: a longer request line is the HTTP parser's 431, not the app's.
      .map((query) => query.slice(0, 12_000).replace(/%[0-9A-Fa-f]?$/, ''))
  );
}

/** A path parameter: real ids mixed with malformed, encoded, traversal, long and unicode ones. */
export function pathParameter(real: readonly string[]): fc.Arbitrary<string> {
  return fc
    .oneof(
      { weight: 2, arbitrary: fc.constantFrom(...real).map(encode) },
      { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS.filter((s) => s !== '')).map(encode) },
      { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).map(encode) },
      { weight: 1, arbitrary: fc.uuid().map((id) => id.toUpperCase()) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.constantFrom(...real, 'x'), fc.constantFrom(...BAD_PERCENT))
          .map(([id, bad]) => `${encode(id)}${bad}`),
      },
      // Not `.`, `..` or `%2e%2e`: the client removes dot segments (WHATWG URL), so they never reach the route.
      { weight: 1, arbitrary: fc.constantFrom('%2F', '..%2F..%2F', 'a%2Fb', '%20', '~', '%2e%2e%2F') },
      { weight: 1, arbitrary: fc.integer({ min: 300, max: 5_000 }).map((n) => 'a'.repeat(n)) },
      // A client id: 26 alphanumerics, and near misses.
      { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom(...'aZ09'), minLength: 25, maxLength: 27 }) },
    )
    .filter((value) => !/^(\.|%2e){1,2}$/i.test(value));
}

const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  maxLength: 60,
});

/** Headers besides Authorization that clients, proxies and scanners send: junk values, forged forwarding. */
export const extraHeaders: fc.Arbitrary<Record<string, string>> = fc.dictionary(
  fc.constantFrom(
    'accept',
    'accept-encoding',
    'accept-language',
    'x-request-id',
    'x-forwarded-for',
    'x-forwarded-proto',
    'x-forwarded-host',
    'forwarded',
    'origin',
    'range',
    'if-none-match',
    'cookie',
  ),
  fc.oneof(printable, fc.constantFrom(...NASTY_STRINGS.filter((value) => /^[\x20-\x7e]*$/.test(value)))),
  { maxKeys: 4 },
);

export interface BodyCase {
  readonly contentType: string | undefined;
  readonly body: string | Buffer | undefined;
  /** What kind of bad input this is, for failure messages. */
  readonly kind: string;
}

const json = (value: unknown) => JSON.stringify(value);

/** A JSON value with every field of `valid` in turn replaced by something of the wrong type. */
function mutated(valid: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(valid);
  const wrong = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(1e308, -1e308, -0, 2 ** 53 + 1, 0.1 + 0.2, -1, 0, 1e-320),
    fc.integer({ min: 300, max: 300_000 }).map((n) => 'x'.repeat(n)),
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom('\ud800', '\udfff', 'a\u0000b'),
  );
  return fc.oneof(
    // One field wrong.
    fc.tuple(fc.constantFrom(...keys), wrong).map(([key, value]) => ({ ...valid, [key]: value })),
    // One field missing.
    fc
      .constantFrom(...keys)
      .map((key) => Object.fromEntries(Object.entries(valid).filter(([k]) => k !== key))),
    // An unknown field, or a pollution attempt.
    fc
      .tuple(fc.constantFrom('unknown', '__proto__', 'constructor', 'id', 'updatedAt', 'data'), wrong)
      .map(([key, value]) => JSON.parse(`{${json(key)}:${json(value) ?? 'null'},${json(valid).slice(1)}`)),
    // Arrays and objects swapped.
    fc.constant([valid]),
    fc.constant({ ...valid, ...Object.fromEntries(keys.map((key) => [key, [valid[key]]])) }),
  );
}

/** Bodies: malformed JSON, wrong content types, deep nesting, huge, wrong types, random JSON. */
export function bodyCase(valid: Record<string, unknown>): fc.Arbitrary<BodyCase> {
  const validText = json(valid);
  const jsonBody = (kind: string) => (value: unknown) => ({
    contentType: 'application/json',
    body: json(value) ?? 'null',
    kind,
  });
  return fc.oneof(
    { weight: 4, arbitrary: mutated(valid).map(jsonBody('wrong field')) },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map(jsonBody('random JSON')) },
    {
      weight: 2,
      arbitrary: fc
        .oneof(
          fc.integer({ min: 0, max: validText.length - 1 }).map((n) => validText.slice(0, n)),
          fc.constantFrom(
            '',
            ' ',
            '{',
            '}',
            '{"a":1,}',
            "{'a':1}",
            'NaN',
            '{"a":NaN}',
            '{"a":1}{"b":2}',
            '\ufeff{}',
            'nul',
            '{"a":"\\ud800"}',
            '{"a":"\\u00"}',
            `${validText}garbage`,
            `[${validText}`,
          ),
        )
        .map((text) => ({ contentType: 'application/json', body: text, kind: 'malformed JSON' })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            undefined,
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=latin1',
            'application/json; charset=utf-16',
            'application/JSON',
            'application/json-patch+json',
            'application/vnd.api+json',
            'application/json, text/plain',
            ';;;',
            'application/xml',
          ),
          fc.constantFrom(validText, 'clientName=x&scopes=products.read', '<a/>'),
        )
        .map(([contentType, body]) => ({ contentType, body, kind: 'content type' })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('[', '{"a":'), fc.integer({ min: 1_000, max: 200_000 }))
        .map(([open, depth]) => ({
          contentType: 'application/json',
          body: open.repeat(depth) + (open === '[' ? ']' : '1}').repeat(depth),
          kind: `nested ${depth} deep`,
        })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(900_000, 1_100_000, 3_000_000).map((size) => ({
        contentType: 'application/json',
        body: `{"name":"${'x'.repeat(size)}"}`,
        kind: `${size} bytes`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => ({
        contentType: 'application/json',
        body: Buffer.from(bytes),
        kind: 'random bytes',
      })),
    },
  );
}

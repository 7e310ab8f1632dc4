// The rule registry of the conformance suite: every table row of parts 2–8 of the spec
// (`catalog-service.md`, kept outside the repository), its numbered rules and its prose rules, each
// condensed in one line. This file is the committed copy of the spec's checklist: a test names the rules
// it checks by id at the start of its title (`[4.1 /products/search size] …`), and
// `scripts/conformance-report.ts` maps the run's results onto it. A rule that no black-box test can
// observe says why in `notCheckable`.

export interface Rule {
  /** `<section> <first cell or short key>`, unique. */
  readonly id: string;
  /** The spec section it comes from (`2.1`, `4.4`, `7.3`…). */
  readonly section: string;
  /** The row or rule, condensed in one line. */
  readonly text: string;
  /** Why no test can check it (a "not shown" item, an internal behaviour no client can observe). */
  readonly notCheckable?: string;
}

/** The spec's sections of parts 2–9, in the spec's order. */
export const SECTIONS: readonly (readonly [section: string, title: string])[] = [
  ['2.1', 'Product (external representation)'],
  ['2.2', 'Reduced product (deprecated list only)'],
  ['2.3', 'Brand'],
  ['2.4', 'M2M client'],
  ['2.5', 'Token response'],
  ['3', 'States and transitions'],
  ['4.1', 'Catalog endpoints'],
  ['4.2', 'Client-management endpoints'],
  ['4.3', 'Token endpoint'],
  ['4.4', 'Incremental sync procedure'],
  ['5', 'Authentication'],
  ['6', 'Events'],
  ['7.1', 'Status codes'],
  ['7.2', 'Error body'],
  ['7.3', 'Error codes'],
  ['7.4', 'Retry classification'],
  ['8', 'Limits'],
  ['9', 'Versioning'],
];

const NOT_SHOWN = 'the spec says "not shown": there is nothing to check';

const rule = (section: string, key: string, text: string, notCheckable?: string): Rule =>
  notCheckable === undefined
    ? { id: `${section} ${key}`, section, text }
    : { id: `${section} ${key}`, section, text, notCheckable };

const productField = (key: string, text: string) => rule('2.1', key, text);

export const RULES: readonly Rule[] = [
  // 2.1 Product: the field table, the relatedProducts table, the prose rules.
  productField('id', 'id: string, immutable internal UUID, the upsert key'),
  productField('productCode', 'productCode: string, the SKU'),
  productField('name', 'name: string'),
  productField('description', 'description: string'),
  productField('brandName', 'brandName: string'),
  productField('brandSlug', 'brandSlug: string'),
  productField('range', 'range: string, frequently empty'),
  productField('category', 'category: string'),
  productField('department', 'department: string'),
  productField('subDepartment', 'subDepartment: string'),
  productField('stockType', 'stockType: string'),
  productField('catalogue', 'catalogue: string'),
  productField(
    'displayOnWeb',
    'displayOnWeb: boolean; a channel-bound client always gets explicit true/false for its channel; unbound: the stored flag, may be omitted (missing = not visible)',
  ),
  productField('notes', 'notes: string, public-facing short description (not private staff content)'),
  productField('colour', 'colour: string, colour or finish'),
  productField('price', 'price: number, nullable (trade selling price)'),
  productField('retailPrice', 'retailPrice: number, nullable (recommended retail price)'),
  productField('supplierCost', 'supplierCost: number, nullable (wholesale/cost basis), returned'),
  productField('barcode', 'barcode: string'),
  productField('length/height/width/weight', 'length, height, width, weight: number'),
  productField('weightUnit', 'weightUnit: string'),
  productField('createdAt', 'createdAt: string, date-time'),
  productField('imageUrl', 'imageUrl: string, nullable'),
  productField('images', 'images: array of {url: string (URI), name: string}'),
  productField('documents', 'documents: array of {url: string (URI), name: string} (spec sheets, manuals)'),
  productField('erpCode', 'erpCode: string; the q search matches it for identifier lookups'),
  productField('altSupplierCode', 'altSupplierCode: string'),
  productField('altSupplierCode2', 'altSupplierCode2: string'),
  productField('webHierarchy', 'webHierarchy: string, segments separated by semicolons'),
  productField(
    'type/subType/subSubType',
    'type, subType, subSubType: string, three-level classification tree',
  ),
  productField('retailRange', 'retailRange: string, distinct from range'),
  productField('relatedProducts', 'relatedProducts: array of projected relations'),
  productField('relatedProducts.productId', 'relatedProducts[].productId: string (uuid), required'),
  productField(
    'relatedProducts.productCode',
    'relatedProducts[].productCode: optional, present only on GET /products/{productId}',
  ),
  productField(
    'relatedProducts.erpCode',
    'relatedProducts[].erpCode: optional, present only on GET /products/{productId}',
  ),
  productField(
    'relatedProducts.relationType',
    'relatedProducts[].relationType: one of required, optional, substitute',
  ),
  productField('relatedProducts.qty', 'relatedProducts[].qty: number'),
  productField(
    'relatedProducts.source',
    'relatedProducts[].source: only value reverse, present only on server-derived reverse ("used by") entries',
  ),
  productField(
    'allowlist',
    'The field list is exhaustive: no other field is ever returned; internal status and other cost/margin fields are absent',
  ),
  productField(
    'relation hidden fields',
    'relatedProducts entries never carry note, name, imageUrl or archived',
  ),
  productField('spares', 'The separate spares array is never exposed'),
  productField('internal note', 'The internal-note field (private staff notes) is never returned'),
  productField(
    'updatedAt',
    'updatedAt is not in the body; usable only as a sort field and through updatedAfter',
  ),

  // 2.2, 2.3
  rule(
    '2.2',
    'reduced product',
    'GET /products returns only id, productCode, brandName, category, description, price, imageUrl (nullable), createdAt',
  ),
  rule('2.3', 'brand', 'A brand is exactly id, name, slug for M2M callers (exhaustive)'),

  // 2.4 M2M client
  rule('2.4', 'clientId', 'clientId: exactly 26 alphanumeric characters, ^[a-zA-Z0-9]{26}$'),
  rule('2.4', 'clientName', 'clientName: 3-100 characters, ^[a-zA-Z0-9\\s\\-_]+$'),
  rule('2.4', 'description', 'description: at most 500 characters, optional'),
  rule('2.4', 'scopes', 'scopes: products.read, products.write, brands.read, brands.write (no prefix)'),
  rule('2.4', 'status', 'status: active or revoked'),
  rule('2.4', 'createdAt', 'createdAt: date-time'),
  rule('2.4', 'createdBy', 'createdBy: {userId, userName}'),
  rule('2.4', 'expiresAt', 'expiresAt: date-time, nullable'),
  rule('2.4', 'lastUsedAt', 'lastUsedAt: date-time, nullable; time of the last token exchange'),
  rule('2.4', 'usageCount', 'usageCount: integer, total API calls made'),
  rule('2.4', 'revokedAt', 'revokedAt: date-time, nullable'),
  rule('2.4', 'revokedBy', 'revokedBy: {userId, userName}'),
  rule(
    '2.4',
    'channel',
    'channel: kebab-case slug of the bound web channel, nullable; absent or null = unbound',
  ),
  rule(
    '2.4',
    'clientSecret',
    'clientSecret: returned only in the create response, never retrievable afterwards',
  ),
  rule('2.4', 'tokenEndpoint', 'tokenEndpoint: URI, create response only'),
  rule('2.4', 'warning', 'warning: string, create response only'),
  rule('2.4', 'web channel record', 'Web channel record: not shown beyond its slug'),

  // 2.5 Token response
  rule('2.5', 'access_token', 'access_token: string, required'),
  rule('2.5', 'token_type', 'token_type: string, required, value Bearer'),
  rule('2.5', 'expires_in', 'expires_in: integer, required; 3600 for newer clients, 86400 for older'),
  rule(
    '2.5',
    'JWT claims',
    'The access token is a JWT with exp, iat and scope (space-separated, each prefixed crm-api/)',
  ),

  // 3 States and transitions
  rule(
    '3',
    '(none)→active',
    'POST /oauth/clients by an admin with a valid body creates an active client; secret returned once',
  ),
  rule(
    '3',
    'active→revoked',
    'DELETE /oauth/clients/{clientId} by an admin revokes: no new tokens at once, existing tokens rejected from the next request',
  ),
  rule(
    '3',
    'revocation check unavailable',
    'If the revocation check is temporarily unavailable, existing tokens of a revoked client are accepted until they expire',
  ),
  rule(
    '3',
    'active→active',
    'PUT /oauth/clients/{clientId} with at least one field changes name, description, scopes or channel; existing tokens keep their scopes',
  ),
  rule('3', 'revoked→revoked', 'PUT on a revoked client is refused; it stays revoked'),
  rule('3', 'rule 1', 'Revocation is irreversible; a replacement client must be created'),
  rule(
    '3',
    'rule 2',
    'When expiresAt has passed no tokens can be issued (whether the stored status changes: not shown)',
  ),
  rule('3', 'rule 3', 'Client secrets cannot be rotated through the API'),
  rule(
    '3',
    'product status',
    'Product status exists internally; only active products appear in the deprecated list',
  ),

  // 4.1 GET /products/search
  rule(
    '4.1',
    '/products/search q',
    'q: max 256 characters (longer: 400 SEARCH_TERM_TOO_LONG); matches name, description, productCode, erpCode; none = match all',
  ),
  rule('4.1', '/products/search size', 'size: default 20, maximum 100'),
  rule('4.1', '/products/search from', 'from: offset, default 0'),
  rule(
    '4.1',
    '/products/search syncToken',
    'syncToken: opaque cursor from a previous response, URL-encoded when sent',
  ),
  rule('4.1', '/products/search brandName', 'brandName: exact brand name filter'),
  rule(
    '4.1',
    '/products/search updatedAfter',
    'updatedAfter: ISO 8601 incremental filter; 1970-01-01T00:00:00Z asks for the whole non-archived catalogue',
  ),
  rule(
    '4.1',
    '/products/search includeArchived',
    'includeArchived: true/false, default false; archived excluded by default',
  ),
  rule(
    '4.1',
    '/products/search sort',
    'sort: name, code (productCode), brand (brandName), price, category, department, subDepartment, supplierCost, createdAt, updatedAt; other: 400 INVALID_SORT_FIELD listing them',
  ),
  rule(
    '4.1',
    '/products/search order',
    'order: asc/desc, default desc, consulted only with sort; with sort any other value: 400 INVALID_SORT',
  ),
  rule(
    '4.1',
    '/products/search fields',
    'fields: comma-separated projection that only narrows; a field outside the allowlist is silently omitted',
  ),
  rule(
    '4.1',
    '/products/search displayOnWeb',
    'displayOnWeb: true = only web-visible, false = hidden (incl. no configured value), omitted = all; visibility as configured for the calling client',
  ),
  rule(
    '4.1',
    '/products/search includeAggregations',
    'includeAggregations: off by default, adds facet counts (type and response shape not shown beyond its name)',
  ),
  rule(
    '4.1',
    '/products/search data',
    'data: array of Product, always present on success; an empty final page is []; each hit the full allowed record',
  ),
  rule('4.1', '/products/search pagination.total', 'pagination.total: integer, capped at 10000'),
  rule(
    '4.1',
    '/products/search pagination.totalIsLowerBound',
    'pagination.totalIsLowerBound: true when capped at 10000 and the real total is at least that; otherwise total is exact',
  ),
  rule('4.1', '/products/search pagination.from', 'pagination.from: integer'),
  rule('4.1', '/products/search pagination.size', 'pagination.size: integer'),
  rule(
    '4.1',
    '/products/search pagination.hasMore',
    'pagination.hasMore: true when a full page was returned, false on the last page',
  ),
  rule('4.1', '/products/search pagination.syncToken', 'pagination.syncToken: same as the root syncToken'),
  rule(
    '4.1',
    '/products/search syncToken response',
    'syncToken (root): cursor for the next page, null on the last page',
  ),
  rule('4.1', '/products/search meta.queryTimeMs', 'meta.queryTimeMs: integer'),
  rule('4.1', '/products/search meta.source', 'meta.source: string'),
  rule(
    '4.1',
    '/products/search errors',
    'Errors: 400 (INVALID_SYNC_TOKEN, SEARCH_TERM_TOO_LONG, INVALID_SORT_FIELD, INVALID_SORT), 401, 403, 503/504 completeness failures; never a partial page',
  ),
  // 4.1 the other catalog routes
  rule(
    '4.1',
    '/products/{productId}',
    'GET /products/{productId}: 200 one fully enriched Product (relations carry productCode and erpCode); 404 NOT_FOUND',
  ),
  rule(
    '4.1',
    '/products',
    'GET /products (deprecated): reduced field set; only status active; the archive flag is not filtered',
  ),
  rule('4.1', '/products limit', 'GET /products limit: integer, default 20'),
  rule('4.1', '/products lastKey', 'GET /products lastKey: base64 cursor from the previous response'),
  rule(
    '4.1',
    '/products response',
    'GET /products 200: {products, lastKey} with lastKey null on the last page; errors 401, 403',
  ),
  rule(
    '4.1',
    '/brands',
    'GET /brands: raw JSON array of Brand, not paginated, not wrapped, no limit/lastKey; includeArchived=true includes archived, default only active',
  ),
  rule(
    '4.1',
    '/brands/search',
    'GET /brands/search: q (omit = all), size (default 20, max 100), from (default 0); {data, pagination {total, from, size}, meta}; no syncToken, hasMore, totalIsLowerBound',
  ),
  rule('4.1', '/brands/{id}', 'GET /brands/{id}: 200 Brand; 401, 403, 404'),
  rule(
    '4.1',
    'scope',
    'Catalog routes need their scope: products.read for products routes, brands.read for brands routes (else 403)',
  ),
  rule('4.1', 'denied /brands/overview', 'GET /brands/overview: 403 to every M2M token regardless of scope'),
  rule(
    '4.1',
    'denied /products/existing-for-preview',
    'POST /products/existing-for-preview: 403 to every M2M token',
  ),
  rule('4.1', 'denied /products/batch-get', 'POST /products/batch-get: 403 to every M2M token'),
  rule('4.1', 'denied /products/check-duplicates', 'POST /products/check-duplicates: 403 to every M2M token'),
  rule('4.1', 'denied /clients*', 'Every /clients* route: 403 to every M2M token'),
  rule(
    '4.1',
    'denied writes',
    'All POST/PUT/DELETE on products and brands: 403 to every M2M token, even with a .write scope',
  ),
  rule(
    '4.1',
    '/company-settings/web-channels',
    'GET /company-settings/web-channels (web-channel registry): not shown beyond its existence',
  ),

  // 4.2 Client management
  rule(
    '4.2',
    'caller',
    "Client-management routes need an admin-group member's ID token; an M2M access token is refused",
  ),
  rule(
    '4.2',
    'GET /oauth/clients',
    'GET /oauth/clients: status active|revoked|all, default active; 200 {clients (no secret, tokenEndpoint, warning), count}; 401, 403',
  ),
  rule(
    '4.2',
    'POST /oauth/clients clientName',
    'Create clientName: required, 3-100 characters, ^[a-zA-Z0-9\\s\\-_]+$',
  ),
  rule('4.2', 'POST /oauth/clients description', 'Create description: optional, at most 500 characters'),
  rule(
    '4.2',
    'POST /oauth/clients scopes',
    'Create scopes: required, at least 1, only the four grantable values; anything else (clients.*, quotes.*) is a validation error',
  ),
  rule(
    '4.2',
    'POST /oauth/clients expiresInDays',
    'Create expiresInDays: optional integer 1-365 days from creation',
  ),
  rule(
    '4.2',
    'POST /oauth/clients response',
    'Create 201: the client, status active, plus clientSecret, tokenEndpoint, warning (secret only here); errors 400 (INVALID_PARAMETER), 401, 403',
  ),
  rule('4.2', 'PUT /oauth/clients/{clientId} clientName', 'Update clientName: same rules as create'),
  rule('4.2', 'PUT /oauth/clients/{clientId} description', 'Update description: at most 500 characters'),
  rule(
    '4.2',
    'PUT /oauth/clients/{clientId} scopes',
    'Update scopes: same allowed values as create; re-issues the allowed scopes',
  ),
  rule(
    '4.2',
    'PUT /oauth/clients/{clientId} channel',
    'Update channel: kebab-case slug that must match the web-channel registry; null unbinds',
  ),
  rule(
    '4.2',
    'PUT /oauth/clients/{clientId}',
    'Update: all fields optional, at least one; clientId 26 alphanumeric; revoked cannot be updated; 200 updated client; 400, 401, 403, 404',
  ),
  rule(
    '4.2',
    'DELETE /oauth/clients/{clientId}',
    'Revoke: 200 {message, clientId, clientName, revokedAt, revokedBy {userId, userName}, note}; 400, 401, 403, 404',
  ),
  rule(
    '4.2',
    'POST /oauth/clients/{clientId}/rotate-secret',
    'Rotate-secret: no body, does not rotate; 200 {message, instructions: string[], consoleUrl: URI}; 401, 403',
  ),

  // 4.3 Token endpoint
  rule('4.3', 'grant_type', 'grant_type: required, client_credentials'),
  rule('4.3', 'client_id', 'client_id: required, the M2M client ID'),
  rule('4.3', 'client_secret', 'client_secret: required, the secret with no extra whitespace'),
  rule(
    '4.3',
    'scope',
    'scope: required, space-separated crm-api/-prefixed scopes; may list fewer than granted',
  ),
  rule(
    '4.3',
    'response',
    'POST {auth_url}/oauth2/token (form-urlencoded): 200 token response; 400 {error: invalid_client|invalid_scope|invalid_grant, error_description}',
  ),

  // 4.4 Incremental sync
  rule(
    '4.4',
    'step 1',
    'First full pass: updatedAfter=1970-01-01T00:00:00Z, size 50 (max 100), follow syncToken until null',
  ),
  rule('4.4', 'step 2', 'Incremental pass: updatedAfter = stored checkpoint, loop with syncToken until null'),
  rule('4.4', 'step 3', 'Capture the new checkpoint before the pass, rewound by an overlap window (900 s)'),
  rule(
    '4.4',
    'step 4',
    'Commit the checkpoint only after a clean pass; on error abort without committing or advancing the cursor',
  ),
  rule(
    '4.4',
    'step 5',
    'Success is a data array; no error response contains data; an empty data array means the end',
  ),
  rule('4.4', 'step 6', 'Upsert by id; duplicates across a pass are expected, omissions possible'),
  rule(
    '4.4',
    'step 7',
    'Never delete downstream records missing from one pass; archived products drop out by default',
  ),
  rule(
    '4.4',
    'step 8',
    'When a page fails twice halve size and retry; at most three attempts per page, then abort',
  ),

  // 5 Authentication
  rule(
    '5',
    'rule 1',
    'Catalog calls send Authorization: Bearer <ACCESS_TOKEN>: the word Bearer so capitalised, the token unquoted',
  ),
  rule(
    '5',
    'rule 2',
    'Token-request scopes carry crm-api/, case-sensitive, space-separated; client create/update scopes have no prefix',
  ),
  rule(
    '5',
    'rule 3',
    'Only the four scopes are grantable; clients.*, quotes.*, misspelled, mis-cased, unprefixed, comma-separated, products.delete: invalid_scope or a validation error',
  ),
  rule(
    '5',
    'rule 4',
    'products.read for /products, /products/search, /products/{productId}; brands.read for /brands, /brands/search, /brands/{id}; .write unlocks nothing',
  ),
  rule(
    '5',
    'rule 5',
    'Client management needs an admin ID token, not an M2M access token (how an admin gets it: not shown)',
  ),
  rule('5', 'rule 6', 'The client secret is displayed once at creation; the client ID is 26 characters'),
  rule(
    '5',
    'rule 7',
    'A token is valid until expires_in elapses (3600 newer / 86400 older); exp is a Unix timestamp; reuse tokens, request a new one on 401',
  ),
  rule(
    '5',
    'rule 8',
    'Revocation blocks new tokens immediately and existing tokens get 403 from the next request (fail-open when the check is unavailable)',
  ),
  rule('5', 'rule 9', 'A client past expiresAt cannot obtain tokens'),
  rule('5', 'rule 10', 'All requests use HTTPS; plain HTTP is not supported'),
  rule('5', 'rule 11', 'Field visibility is fixed by the allowlist and does not widen with scope'),

  // 6 Events
  rule(
    '6',
    'events',
    'Events: not shown; no webhook, notification or event-stream interface',
    'the spec describes no event interface, so no rule to check; the service adds signed webhooks as an extension of the contract (issue 31), tested in webhooks/ and listed below among the tests that name no rule',
  ),

  // 7.1 Status codes
  rule('7.1', '200', '200 Success'),
  rule('7.1', '201', '201 Created (POST /oauth/clients)'),
  rule(
    '7.1',
    '400',
    "400 invalid format, parameter, body or cursor; also the token endpoint's status for invalid_client, invalid_scope, invalid_grant",
  ),
  rule('7.1', '401', '401 missing, malformed, expired or wrong-type token'),
  rule(
    '7.1',
    '403',
    '403 missing scope, admin role absent, endpoint denied to M2M tokens, write with an M2M token, or client revoked',
  ),
  rule('7.1', '404', '404 unknown resource'),
  rule('7.1', '429', '429 rate limit exceeded'),
  rule('7.1', '500', '500 unexpected server error'),
  rule('7.1', '503', '503 temporarily unavailable or search incomplete'),
  rule('7.1', '504', '504 search time-out'),

  // 7.2 Error body
  rule('7.2', 'message', 'Every error body is a JSON object with a string message'),
  rule('7.2', 'no data', 'An error body never contains a data array (success is recognised by data)'),
  rule('7.2', 'error', 'error: machine-readable code, best effort; the generic 500 carries none'),
  rule('7.2', 'requestId', 'requestId: trace ID, string or null'),
  rule('7.2', 'details', 'details: free-form object'),
  rule(
    '7.2',
    'errors',
    'errors: array used by client-management endpoints on validation failures, one entry per invalid field (item shape not shown)',
  ),
  rule('7.2', 'code', 'code: used instead of error by GET /brands/search, with a details object'),
  rule(
    '7.2',
    'gateway bodies',
    'Gateway-produced rejections (401, 403, 429) carry only message (Unauthorized, Forbidden, Too many requests)',
  ),

  // 7.3 Codes
  rule('7.3', 'INVALID_SYNC_TOKEN', 'INVALID_SYNC_TOKEN 400: cursor stale or malformed; can never succeed'),
  rule('7.3', 'SEARCH_TERM_TOO_LONG', 'SEARCH_TERM_TOO_LONG 400: q longer than 256 characters'),
  rule(
    '7.3',
    'INVALID_SORT_FIELD',
    'INVALID_SORT_FIELD 400: sort not an allowed column ID; the message lists them',
  ),
  rule('7.3', 'INVALID_SORT', 'INVALID_SORT 400: order neither asc nor desc while sort is present'),
  rule(
    '7.3',
    'INVALID_PARAMETER',
    'INVALID_PARAMETER 400: invalid client-management input (e.g. clientName shorter than 3)',
  ),
  rule(
    '7.3',
    'VALIDATION_ERROR',
    'VALIDATION_ERROR 400: generic validation failure with details {field, reason}',
  ),
  rule('7.3', 'UNAUTHORIZED', 'UNAUTHORIZED 401: valid authentication token required'),
  rule('7.3', 'FORBIDDEN', 'FORBIDDEN 403: insufficient scope or admin role'),
  rule('7.3', 'NOT_FOUND', 'NOT_FOUND 404: resource not found'),
  rule('7.3', 'INTERNAL_ERROR', 'INTERNAL_ERROR 500: unexpected error'),
  rule(
    '7.3',
    'SEARCH_INCOMPLETE',
    'SEARCH_INCOMPLETE 503: results cannot be proven complete; not the end of results',
  ),
  rule(
    '7.3',
    'IDENTIFIER_LOOKUP_INCOMPLETE',
    'IDENTIFIER_LOOKUP_INCOMPLETE 503: identifier lookup did not complete',
  ),
  rule('7.3', 'SEARCH_TIMEOUT', 'SEARCH_TIMEOUT 504: query exceeded its time budget'),
  rule(
    '7.3',
    'observed messages',
    'Observed messages: admin role required; client name must be at least 3 characters long; an unknown scope is named',
  ),

  // 7.4 Retry classification
  rule('7.4', '401', '401: obtain a new token and retry once'),
  rule('7.4', '403', '403: do not retry'),
  rule('7.4', '429', '429: retry with exponential backoff (the only retryable 4xx)'),
  rule('7.4', 'other 4xx', 'Other 4xx: fix the request; INVALID_SYNC_TOKEN: discard the cursor'),
  rule('7.4', '5xx', '5xx, 503, 504: retry with backoff, at most three attempts'),
  rule(
    '7.4',
    'uncoded failure',
    'An uncoded failure of unknown status is retried a bounded number of times and never commits a checkpoint',
  ),
  rule(
    '7.4',
    'token endpoint errors',
    'Token endpoint errors are 400 {error, error_description}: invalid_client (wrong credentials, revoked, stray whitespace, ID token as credentials), invalid_scope (not granted, wrong prefix/case/separator)',
  ),

  // 8 Limits
  rule(
    '8',
    'Gateway throttle',
    '50 requests/second sustained, 100 burst, shared by all M2M clients; over the limit 429',
  ),
  rule(
    '8',
    'Per-IP protection',
    'A source IP is blocked after about 1,000 requests in a rolling 5 minutes, until the window clears; 429',
  ),
  rule('8', 'q length', 'q: 256 characters (GET /products/search)'),
  rule('8', 'size', 'size: default 20, maximum 100 (GET /products/search, GET /brands/search)'),
  rule('8', 'from', 'from: default 0 (search endpoints)'),
  rule(
    '8',
    'Reported total',
    'Reported total capped at 10000 with totalIsLowerBound true; syncToken paging continues beyond 10000',
  ),
  rule('8', 'limit', 'limit: default 20 (GET /products)'),
  rule('8', 'clientName', 'clientName: 3-100 characters (create, update)'),
  rule('8', 'description', 'description: at most 500 characters (create, update)'),
  rule('8', 'scopes', 'scopes: at least 1 item on create'),
  rule('8', 'expiresInDays', 'expiresInDays: 1-365 (create)'),
  rule('8', 'Access-token lifetime', '3600 s for newer clients, 86400 s for older; use expires_in'),
  rule('8', 'Revocation', 'Immediate for new tokens; existing tokens rejected from the next API request'),
  rule('8', 'Recommended overlap window', '900 seconds (incremental sync)'),
  rule(
    '8',
    'Retry-After',
    'Whether a Retry-After header is sent on 429: not shown (this service documents that it sends one)',
  ),

  // 9 Versioning
  rule(
    '9',
    'paths',
    'No version segment in the paths; the stage may be a leading segment of {base_url}; use the base URL as provided, over HTTPS',
  ),
  rule(
    '9',
    'GET /products deprecated',
    'GET /products is deprecated and replaced by GET /products/search (removal date: not shown)',
  ),
  rule(
    '9',
    'token lifetime',
    'The access-token lifetime depends on when the client was created (3600 newer, 86400 older); use expires_in',
  ),
  rule('9', 'version scheme', 'Version identifier scheme and compatibility policy: not shown', NOT_SHOWN),
];

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((entry) => [entry.id, entry]));

/** The rule ids a test title starts with: `[2.1 id][4.1 /products/search data] …` → both ids. */
export function ruleIdsOf(title: string): string[] {
  const ids: string[] = [];
  const pattern = /^\s*\[([^\]]+)\]/;
  let rest = title;
  for (let match = pattern.exec(rest); match !== null; match = pattern.exec(rest)) {
    ids.push((match[1] as string).trim());
    rest = rest.slice(match[0].length);
  }
  return ids;
}

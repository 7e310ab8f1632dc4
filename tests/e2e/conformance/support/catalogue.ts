// Catalogue data a rule needs, written the documented way: through the admin write routes with an
// administrator's ID token (decisions: Catalogue model), every reply validated against the document.
import type { AdminProduct, Product, ProductSearchResponse } from '@catalog/contracts';
import type { Call } from './contract.ts';

export type AdminProductBody = Partial<Omit<AdminProduct, 'id' | 'createdAt' | 'updatedAt'>> & {
  productCode: string;
  name: string;
};

let sequence = 0;
/** A product code no demo product has. */
export function uniqueCode(prefix = 'CONF'): string {
  sequence += 1;
  return `${prefix}-${Date.now().toString(36).toUpperCase()}-${sequence}`;
}

export async function createProduct(
  call: Call,
  admin: string,
  body: AdminProductBody,
): Promise<AdminProduct> {
  const reply = await call('/products', { method: 'POST', token: admin, body });
  if (reply.status !== 201) throw new Error(`POST /products → ${reply.status}: ${reply.text}`);
  return reply.body as AdminProduct;
}

export async function replaceProduct(
  call: Call,
  admin: string,
  id: string,
  body: AdminProductBody,
): Promise<AdminProduct> {
  // Written over whatever is stored (`*`): the conformance fixtures own their products.
  const reply = await call(`/products/${id}`, {
    method: 'PUT',
    token: admin,
    body,
    headers: { 'If-Match': '*' },
  });
  if (reply.status !== 200) throw new Error(`PUT /products/${id} → ${reply.status}: ${reply.text}`);
  return reply.body as AdminProduct;
}

export async function archiveProduct(call: Call, admin: string, id: string): Promise<AdminProduct> {
  const reply = await call(`/products/${id}`, { method: 'DELETE', token: admin });
  if (reply.status !== 200) throw new Error(`DELETE /products/${id} → ${reply.status}: ${reply.text}`);
  return reply.body as AdminProduct;
}

export async function createBrand(
  call: Call,
  admin: string,
  body: { name: string; slug?: string },
): Promise<{ id: string; name: string; slug: string }> {
  const slug =
    body.slug ??
    body.name
      .toLowerCase()
      .replaceAll(/[^a-z0-9]+/g, '-')
      .replaceAll(/^-|-$/g, '');
  const reply = await call('/brands', { method: 'POST', token: admin, body: { ...body, slug } });
  if (reply.status !== 201) throw new Error(`POST /brands → ${reply.status}: ${reply.text}`);
  return reply.body as { id: string; name: string; slug: string };
}

/** GET /products/search with a query object; the reply's body typed (validated by `call`). */
export async function search(
  call: Call,
  token: string,
  query: Record<string, string | number | boolean>,
): Promise<{ status: number; body: ProductSearchResponse; text: string }> {
  const params = new URLSearchParams(
    Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]),
  );
  const reply = await call(`/products/search?${params}`, { token });
  return { status: reply.status, body: reply.body as ProductSearchResponse, text: reply.text };
}

/** Every page of a search, following syncToken until it is null. */
export async function searchAllPages(
  call: Call,
  token: string,
  query: Record<string, string | number | boolean>,
  maxPages = 1_000,
): Promise<{ pages: ProductSearchResponse[]; products: Product[] }> {
  const pages: ProductSearchResponse[] = [];
  let syncToken: string | null = null;
  do {
    const page = await search(call, token, syncToken === null ? query : { ...query, syncToken });
    if (page.status !== 200) throw new Error(`search → ${page.status}: ${page.text}`);
    pages.push(page.body);
    syncToken = page.body.syncToken;
  } while (syncToken !== null && pages.length < maxPages);
  return { pages, products: pages.flatMap((page) => page.data) };
}

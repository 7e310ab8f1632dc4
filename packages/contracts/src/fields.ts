// Field allowlists: the property names of the closed schemas of the document.
import { catalogApiDocument } from './documents.ts';
import { keysOf } from './openapi-lookup.ts';
import type {
  AdminProduct,
  Brand,
  M2MClient,
  M2MClientCreated,
  Product,
  ReducedProduct,
  RelatedProduct,
} from './types.ts';

const schemas = catalogApiDocument.components.schemas;

/** The product allowlist (spec 2.1): nothing else is ever returned to an M2M caller. */
export const PRODUCT_FIELDS: readonly (keyof Product)[] = keysOf(schemas.Product.properties);

/** Fields of a projected relation (spec 2.1, relatedProducts entry). */
export const RELATED_PRODUCT_FIELDS: readonly (keyof RelatedProduct)[] = keysOf(
  schemas.RelatedProduct.properties,
);

/** Fields of the deprecated GET /products (spec 2.2). */
export const REDUCED_PRODUCT_FIELDS: readonly (keyof ReducedProduct)[] = keysOf(
  schemas.ReducedProduct.properties,
);

/** Fields of a brand (spec 2.3). */
export const BRAND_FIELDS: readonly (keyof Brand)[] = keysOf(schemas.Brand.properties);

/** Fields of an M2M client as listed and updated (spec 2.4, without the create-only fields). */
export const M2M_CLIENT_FIELDS: readonly (keyof M2MClient)[] = keysOf(schemas.M2MClient.properties);

/** Fields of the create response: the client plus clientSecret, tokenEndpoint and warning. */
export const M2M_CLIENT_CREATED_FIELDS: readonly (keyof M2MClientCreated)[] = keysOf(
  schemas.M2MClientCreated.properties,
);

/** Fields of the internal (admin) product record. */
export const ADMIN_PRODUCT_FIELDS: readonly (keyof AdminProduct)[] = keysOf(schemas.AdminProduct.properties);

/** Internal fields of the admin record that are never exposed to M2M callers. */
export const INTERNAL_PRODUCT_FIELDS: readonly (keyof AdminProduct)[] = ADMIN_PRODUCT_FIELDS.filter(
  (field) => !(PRODUCT_FIELDS as readonly string[]).includes(field),
);

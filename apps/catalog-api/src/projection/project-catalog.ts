import type { Brand, M2MClient, ReducedProduct } from '@catalog/contracts';
import type { ProductRecord, Brand as StoredBrand, StoredClient } from '@catalog/store';

/** Spec 2.3: id, name and slug; nothing else. */
export function projectBrand(brand: StoredBrand): Brand {
  return { id: brand.id, name: brand.name, slug: brand.slug };
}

/** Spec 2.2: the deprecated list's reduced field set. */
export function projectReducedProduct(record: ProductRecord): ReducedProduct {
  return {
    id: record.id,
    productCode: record.productCode,
    brandName: record.brandName,
    category: record.category,
    description: record.description,
    price: record.price,
    imageUrl: record.imageUrl,
    createdAt: record.createdAt,
  } as ReducedProduct;
}

/** Spec 2.4 without the secret hash and token lifetime, which never leave the servers. */
export function projectClient(client: StoredClient): M2MClient {
  return {
    clientId: client.clientId,
    clientName: client.clientName,
    ...(client.description === undefined ? {} : { description: client.description }),
    scopes: [...client.scopes],
    status: client.status,
    createdAt: client.createdAt,
    createdBy: { userId: client.createdBy.userId, userName: client.createdBy.userName },
    expiresAt: client.expiresAt,
    lastUsedAt: client.lastUsedAt,
    usageCount: client.usageCount,
    revokedAt: client.revokedAt,
    ...(client.revokedBy === null
      ? {}
      : { revokedBy: { userId: client.revokedBy.userId, userName: client.revokedBy.userName } }),
    channel: client.channel,
  };
}

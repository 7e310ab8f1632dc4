import type {
  LinkedFile,
  ProductInput,
  RelatedProductInput,
  RelationType,
  SpareEntry,
} from '../model/product.ts';
import type { WebChannelInput } from '../model/web-channel.ts';
import { between, chance, mix, pick, type Random, random, seedNumber } from './prng.ts';
import {
  ADJECTIVES,
  BRAND_ENDINGS,
  BRAND_SUFFIXES,
  BRAND_SYLLABLES,
  CATALOGUES,
  CODE_PREFIXES,
  COLOURS,
  DEPARTMENTS,
  MATERIALS,
  RANGES,
  RETAIL_RANGES,
  SIZES,
  STOCK_TYPES,
  TYPES,
  WEB_CHANNELS,
} from './vocabulary.ts';

export interface CatalogueSpec {
  products: number;
  /** Same seed, same catalogue; default "demo". */
  seed?: string;
}

const CDN = 'https://cdn.example.com';
const EPOCH = Date.UTC(2022, 0, 1);
const THREE_YEARS_MS = 3 * 365 * 24 * 60 * 60 * 1000;
const RELATION_TYPES: readonly RelationType[] = ['required', 'optional', 'substitute'];

export const DEMO_WEB_CHANNELS: readonly WebChannelInput[] = WEB_CHANNELS;

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, '0').slice(-digits);
}

/** A stable UUID (v4 layout) per product index; the index makes it unique. */
export function seededProductId(seed: number, index: number): string {
  const a = mix(seed, index);
  const b = mix(a, index ^ 0x5bd1e995);
  return `${hex(a, 8)}-${hex(b >>> 16, 4)}-4${hex(b, 3)}-${hex(0x8000 | (mix(b, 7) & 0x3fff), 4)}-${hex(index, 12)}`;
}

export function brandCount(products: number): number {
  return Math.max(12, Math.min(1500, Math.round(Math.sqrt(products) * 0.8)));
}

export function brandName(seed: number, index: number): string {
  const rnd = random(mix(seed ^ 0xb4a11d, index));
  const base = `${pick(rnd, BRAND_SYLLABLES)}${pick(rnd, BRAND_ENDINGS)}`;
  // The index keeps names unique once the syllable combinations run out.
  return `${base}${pick(rnd, BRAND_SUFFIXES)}${index >= 150 ? ` ${index}` : ''}`;
}

function productCode(rnd: Random, index: number): string {
  const prefix = pick(rnd, CODE_PREFIXES);
  const n = String(index).padStart(6, '0');
  switch (index % 4) {
    case 0:
      return `${prefix}-${n}`;
    case 1:
      return `${prefix}.${n.slice(0, 3)}.${n.slice(3)}`;
    case 2:
      return `${prefix} ${n}`;
    default:
      return `${prefix}${n}/${between(rnd, 1, 9)}`;
  }
}

function barcode(rnd: Random): string {
  let digits = '50';
  while (digits.length < 13) digits += String(between(rnd, 0, 9));
  return digits;
}

function files(rnd: Random, code: string, kind: 'images' | 'documents'): LinkedFile[] {
  const slug = encodeURIComponent(code.replace(/[\s/.]+/g, '-'));
  if (kind === 'images') {
    return Array.from({ length: between(rnd, 0, 3) }, (_, n) => ({
      url: `${CDN}/products/${slug}/${n + 1}.jpg`,
      name: n === 0 ? 'Main image' : `View ${n + 1}`,
    }));
  }
  const documents: LinkedFile[] = [];
  if (chance(rnd, 0.6))
    documents.push({ url: `${CDN}/docs/${slug}/spec-sheet.pdf`, name: 'Specification sheet' });
  if (chance(rnd, 0.3))
    documents.push({ url: `${CDN}/docs/${slug}/installation.pdf`, name: 'Installation guide' });
  return documents;
}

function relations(rnd: Random, seed: number, index: number): RelatedProductInput[] {
  if (index < 3) return [];
  const count = chance(rnd, 0.45) ? between(rnd, 1, 3) : 0;
  const targets = new Set<number>();
  while (targets.size < count) targets.add(index - between(rnd, 1, Math.min(index, 500)));
  return [...targets].map((target) => {
    const relation: RelatedProductInput = {
      productId: seededProductId(seed, target),
      relationType: pick(rnd, RELATION_TYPES),
      qty: between(rnd, 1, 4),
    };
    if (chance(rnd, 0.2)) relation.note = 'Check compatibility before ordering';
    return relation;
  });
}

function spares(rnd: Random, seed: number, index: number): SpareEntry[] {
  if (index < 2 || !chance(rnd, 0.15)) return [];
  return [
    {
      productId: seededProductId(seed, index - between(rnd, 1, Math.min(index, 50))),
      qty: between(rnd, 1, 2),
    },
  ];
}

function money(value: number): number {
  return Math.round(value * 100) / 100;
}

/** One product, derived only from (seed, index): batches can be generated in any order. */
export function generateProduct(seed: number, index: number, brands: number): ProductInput {
  const rnd = random(mix(seed, index));
  const department = pick(rnd, DEPARTMENTS);
  const category = pick(rnd, department.categories);
  const subDepartment = pick(rnd, category.subDepartments);
  const type = pick(rnd, TYPES);
  const subType = pick(rnd, type.subTypes);
  const noun = pick(rnd, category.nouns);
  const material = pick(rnd, MATERIALS);
  const adjective = pick(rnd, ADJECTIVES);
  const size = pick(rnd, SIZES);
  const code = productCode(rnd, index);
  const cost = money(between(rnd, 50, 50_000) / 100);
  const margin = between(rnd, 15, 65);
  const price = money(cost * (1 + margin / 100));
  const images = files(rnd, code, 'images');
  const product: ProductInput = {
    id: seededProductId(seed, index),
    productCode: code,
    erpCode: chance(rnd, 0.9) ? `ERP-${String(1_000_000 + index)}` : '',
    name: `${adjective} ${material} ${noun} ${size}`,
    description: `${adjective} ${noun.toLowerCase()} in ${material.toLowerCase()} for ${subDepartment.toLowerCase()} work. Size ${size}.`,
    brandName: brandName(seed, between(rnd, 0, brands - 1)),
    range: chance(rnd, 0.3) ? pick(rnd, RANGES) : '',
    category: category.name,
    department: department.name,
    subDepartment,
    stockType: pick(rnd, STOCK_TYPES),
    catalogue: pick(rnd, CATALOGUES),
    notes: chance(rnd, 0.4) ? `${noun} with ${material.toLowerCase()} finish` : '',
    colour: pick(rnd, COLOURS),
    price: chance(rnd, 0.03) ? null : price,
    retailPrice: chance(rnd, 0.1) ? null : money(price * (1.2 + rnd() * 0.3)),
    supplierCost: chance(rnd, 0.05) ? null : cost,
    costPrice: cost,
    marginPercent: margin,
    barcode: barcode(rnd),
    length: between(rnd, 10, 2000),
    height: between(rnd, 10, 1000),
    width: between(rnd, 10, 1000),
    weight: money(between(rnd, 5, 25_000) / 1000),
    weightUnit: 'kg',
    imageUrl: images[0]?.url ?? null,
    images,
    documents: files(rnd, code, 'documents'),
    altSupplierCode: chance(rnd, 0.5) ? `ALT-${between(rnd, 10_000, 99_999)}` : '',
    altSupplierCode2: chance(rnd, 0.2) ? `X${between(rnd, 100_000, 999_999)}` : '',
    webHierarchy: `${department.name};${category.name};${subDepartment}`,
    type: type.type,
    subType: subType.subType,
    subSubType: pick(rnd, subType.subSubTypes),
    retailRange: pick(rnd, RETAIL_RANGES),
    relatedProducts: relations(rnd, seed, index),
    spares: spares(rnd, seed, index),
    internalNote: chance(rnd, 0.25)
      ? `Supplier lead time ${between(rnd, 2, 12)} weeks; do not quote below cost`
      : '',
    status: chance(rnd, 0.05) ? 'inactive' : chance(rnd, 0.03) ? 'discontinued' : 'active',
    archived: chance(rnd, 0.03),
    createdAt: new Date(EPOCH + Math.floor(rnd() * THREE_YEARS_MS)).toISOString(),
  };
  const shown = rnd();
  if (shown < 0.7) product.displayOnWeb = true;
  else if (shown < 0.9) product.displayOnWeb = false;
  if (chance(rnd, 0.3)) {
    const visibility: Record<string, boolean> = {};
    for (const channel of WEB_CHANNELS) if (chance(rnd, 0.5)) visibility[channel.slug] = chance(rnd, 0.6);
    product.webVisibility = visibility;
  }
  return product;
}

/** Yields the catalogue's products in batches, without holding it all in memory. */
export function* generateProductBatches(spec: CatalogueSpec, batchSize: number): Generator<ProductInput[]> {
  const seed = seedNumber(spec.seed ?? 'demo');
  const brands = brandCount(spec.products);
  for (let start = 0; start < spec.products; start += batchSize) {
    const end = Math.min(spec.products, start + batchSize);
    const batch: ProductInput[] = [];
    for (let index = start; index < end; index += 1) batch.push(generateProduct(seed, index, brands));
    yield batch;
  }
}

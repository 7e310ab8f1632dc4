import type { CatalogStore, ProductInput, ProductRecord } from '@catalog/store';

const WORDS = [
  'anchor',
  'Bracket',
  'cable',
  'Damper',
  'elbow',
  'Flange',
  'gasket',
  'Hinge',
  'insert',
  'Joint',
];
const BRANDS = ['Acme Tools', 'Bolt Co', 'bolt co', 'Zeta Works'];
const CATEGORIES = ['Kitchen', 'tools', 'Garden', ''];
const DEPARTMENTS = ['Home', 'diy', 'Outdoor'];
const SUB_DEPARTMENTS = ['Cooking', 'power', 'Hand', 'beds'];

function uuid(n: number): string {
  return `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
}

/** Hand-made products that the text, identifier and filter rules talk about. */
export const NAMED: Record<string, ProductInput> = {
  torch: {
    id: uuid(1),
    productCode: 'AB-100',
    erpCode: 'ERP.500',
    name: 'Crème Brûlée Torch',
    description: 'Butane kitchen torch',
    brandName: 'Acme Tools',
    category: 'Kitchen',
    department: 'Home',
    stockType: 'Stocked',
    price: 25,
    supplierCost: 10,
    displayOnWeb: true,
    webVisibility: { trade: false },
  },
  adaptor: {
    id: uuid(2),
    productCode: 'ZZ-1',
    name: 'AB 100 adaptor',
    description: 'Fits AB-100 torches',
    brandName: 'Acme Tools',
    category: 'Kitchen',
    department: 'Home',
    stockType: 'Special order',
    price: 5,
  },
  drill: {
    id: uuid(3),
    productCode: 'DR.18.V',
    name: 'Cordless drill 18V',
    description: 'Two batteries',
    brandName: 'Bolt Co',
    category: 'tools',
    department: 'diy',
    stockType: 'Stocked',
    displayOnWeb: false,
    webVisibility: { trade: true },
  },
  bits: {
    id: uuid(4),
    productCode: 'DB  200',
    erpCode: 'E 42',
    name: 'Drill bit set',
    brandName: 'bolt co',
    category: 'tools',
    department: 'diy',
    price: 12,
  },
  archived: {
    id: uuid(5),
    productCode: 'ARCH-1',
    name: 'Archived drill',
    brandName: 'Bolt Co',
    archived: true,
    displayOnWeb: true,
  },
  dashes: { id: uuid(6), productCode: '--', name: 'Dash part', brandName: 'Zeta Works' },
  squared: { id: uuid(7), productCode: 'TW-25', name: 'Twin and earth 2.5mm²', brandName: 'Zeta Works' },
};

/** Plain products with spread-out sort keys, mixed case and unset prices. */
function generated(count: number): ProductInput[] {
  return Array.from({ length: count }, (_, i) => {
    const product: ProductInput = {
      id: uuid(100 + i),
      productCode: `${i % 3 === 0 ? 'g' : 'G'}-${String((i * 37) % 101).padStart(3, '0')}`,
      name: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]?.toLowerCase()} ${i % 5}`,
      description: i % 4 === 0 ? 'heavy duty' : 'light',
      brandName: BRANDS[i % BRANDS.length] as string,
      category: CATEGORIES[i % CATEGORIES.length] as string,
      department: DEPARTMENTS[i % DEPARTMENTS.length] as string,
      subDepartment: SUB_DEPARTMENTS[i % SUB_DEPARTMENTS.length] as string,
      stockType: i % 2 === 0 ? 'Stocked' : 'Special order',
      price: i % 6 === 0 ? null : (i * 13) % 50,
      supplierCost: i % 5 === 0 ? null : (i * 7) % 20,
      createdAt: new Date(Date.UTC(2020, 0, 1 + ((i * 11) % 40))).toISOString(),
      archived: i % 17 === 0,
    };
    if (i % 3 !== 2) product.displayOnWeb = i % 3 === 0;
    if (i % 4 === 1) product.webVisibility = { 'main-site': i % 8 === 1 };
    return product;
  });
}

export async function buildSearchFixture(store: CatalogStore): Promise<ProductRecord[]> {
  await store.webChannels.create({ slug: 'main-site' });
  await store.webChannels.create({ slug: 'trade' });
  for (const product of Object.values(NAMED)) await store.products.create(product);
  // Several batches so that updatedAt differs between groups of products.
  const rest = generated(60);
  for (let i = 0; i < rest.length; i += 15) await store.products.upsertMany(rest.slice(i, i + 15));
  return store.products.getMany([...Object.values(NAMED), ...rest].map((p) => p.id as string));
}

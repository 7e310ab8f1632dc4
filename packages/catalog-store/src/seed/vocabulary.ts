interface Department {
  name: string;
  categories: ReadonlyArray<{ name: string; subDepartments: readonly string[]; nouns: readonly string[] }>;
}

/** Department → category → sub-department, and the product nouns that belong there. */
export const DEPARTMENTS: readonly Department[] = [
  {
    name: 'Plumbing',
    categories: [
      {
        name: 'Pipe Fittings',
        subDepartments: ['Compression', 'Push-fit', 'Solder Ring'],
        nouns: ['Elbow', 'Tee', 'Coupler', 'Reducer', 'Tap Connector'],
      },
      {
        name: 'Valves',
        subDepartments: ['Isolating', 'Radiator', 'Check'],
        nouns: ['Ball Valve', 'Gate Valve', 'Radiator Valve', 'Check Valve'],
      },
      {
        name: 'Sanitaryware',
        subDepartments: ['Basins', 'Toilets', 'Showers'],
        nouns: ['Basin', 'Close-coupled Toilet', 'Shower Head', 'Mixer Tap'],
      },
    ],
  },
  {
    name: 'Electrical',
    categories: [
      {
        name: 'Cable',
        subDepartments: ['Twin and Earth', 'Flex', 'Armoured'],
        nouns: ['Cable Drum', 'Flex Cable', 'SWA Cable'],
      },
      {
        name: 'Lighting',
        subDepartments: ['Downlights', 'Battens', 'Outdoor'],
        nouns: ['LED Downlight', 'Batten Light', 'Floodlight', 'Bulkhead'],
      },
      {
        name: 'Wiring Accessories',
        subDepartments: ['Sockets', 'Switches', 'Boxes'],
        nouns: ['Double Socket', 'Light Switch', 'Back Box', 'Fused Spur'],
      },
    ],
  },
  {
    name: 'Tools',
    categories: [
      {
        name: 'Power Tools',
        subDepartments: ['Drills', 'Saws', 'Grinders'],
        nouns: ['Combi Drill', 'Circular Saw', 'Angle Grinder', 'Impact Driver'],
      },
      {
        name: 'Hand Tools',
        subDepartments: ['Spanners', 'Pliers', 'Screwdrivers'],
        nouns: ['Spanner Set', 'Pliers', 'Screwdriver Set', 'Pipe Wrench'],
      },
      {
        name: 'Accessories',
        subDepartments: ['Drill Bits', 'Blades', 'Batteries'],
        nouns: ['Drill Bit Set', 'Saw Blade', 'Battery Pack', 'Charger'],
      },
    ],
  },
  {
    name: 'Heating',
    categories: [
      {
        name: 'Radiators',
        subDepartments: ['Panel', 'Towel Rails', 'Column'],
        nouns: ['Panel Radiator', 'Towel Rail', 'Column Radiator'],
      },
      {
        name: 'Boilers',
        subDepartments: ['Combi', 'System', 'Controls'],
        nouns: ['Combi Boiler', 'System Boiler', 'Thermostat', 'Programmer'],
      },
    ],
  },
  {
    name: 'Kitchen',
    categories: [
      {
        name: 'Sinks',
        subDepartments: ['Stainless', 'Ceramic', 'Composite'],
        nouns: ['Kitchen Sink', 'Sink Waste', 'Kitchen Tap'],
      },
      {
        name: 'Cooking',
        subDepartments: ['Hobs', 'Ovens', 'Extraction'],
        nouns: ['Induction Hob', 'Built-in Oven', 'Cooker Hood', 'Crème Brûlée Torch'],
      },
    ],
  },
];

export const ADJECTIVES = [
  'Heavy-duty',
  'Compact',
  'Professional',
  'Slimline',
  'Premium',
  'Economy',
  'Brushless',
  'Anti-corrosion',
  'Low-profile',
  'Weatherproof',
  'Fire-rated',
  'Quick-fit',
];
export const MATERIALS = [
  'Brass',
  'Copper',
  'Stainless Steel',
  'Chrome',
  'Zinc',
  'ABS',
  'Cast Iron',
  'Aluminium',
  'Matt Black',
  'Polished Nickel',
  'Ceramic',
  'PVC',
];
export const SIZES = [
  '15mm',
  '22mm',
  '28mm',
  '1/2"',
  '3/4"',
  '600mm',
  '1200mm',
  '18V',
  '230V',
  '10m',
  '50m',
  '2.5mm²',
  'M8',
  'M10',
];
export const COLOURS = [
  'White',
  'Black',
  'Chrome',
  'Brushed Brass',
  'Anthracite',
  'Grey',
  'Silver',
  'Gunmetal',
  '',
];
export const STOCK_TYPES = ['Stocked', 'Special order', 'Drop ship', 'Clearance'];
export const CATALOGUES = ['Trade 2024', 'Trade 2025', 'Retail 2025', 'Clearance'];
export const RETAIL_RANGES = ['Essentials', 'Signature', 'Pro Series', 'Heritage', ''];
export const RANGES = ['Classic', 'Contour', 'Vector', 'Linea', 'Nova'];
export const TYPES = [
  {
    type: 'Consumable',
    subTypes: [
      { subType: 'Fixing', subSubTypes: ['Screw', 'Plug', 'Anchor'] },
      { subType: 'Sealant', subSubTypes: ['Silicone', 'Tape'] },
    ],
  },
  {
    type: 'Equipment',
    subTypes: [
      { subType: 'Powered', subSubTypes: ['Cordless', 'Corded'] },
      { subType: 'Manual', subSubTypes: ['Standard', 'Insulated'] },
    ],
  },
  {
    type: 'Component',
    subTypes: [
      { subType: 'Fitting', subSubTypes: ['Straight', 'Angled'] },
      { subType: 'Control', subSubTypes: ['Digital', 'Mechanical'] },
    ],
  },
];
export const BRAND_SYLLABLES = [
  'Nor',
  'Cas',
  'Vel',
  'Tor',
  'Mar',
  'Bri',
  'Kel',
  'Dun',
  'Ash',
  'Ren',
  'Sol',
  'Hal',
  'Por',
  'Wes',
  'Tan',
  'Lux',
  'Bel',
  'Cor',
];
export const BRAND_ENDINGS = [
  'well',
  'tex',
  'ford',
  'ton',
  'max',
  'line',
  'craft',
  'flow',
  'tec',
  'wood',
  'mark',
  'son',
];
export const BRAND_SUFFIXES = ['', '', ' Pro', ' Tools', ' & Co', ' Industrial', ' Trade'];
export const CODE_PREFIXES = [
  'AB',
  'CX',
  'DR',
  'EL',
  'FT',
  'HV',
  'KP',
  'LM',
  'PL',
  'RT',
  'SV',
  'TX',
  'VL',
  'ZN',
];
export const WEB_CHANNELS = [
  { slug: 'main-site', name: 'Main website' },
  { slug: 'trade-portal', name: 'Trade portal' },
  { slug: 'outlet', name: 'Outlet store' },
] as const;

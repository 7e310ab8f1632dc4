// The "see what an integrator sees" form → the query of GET /products/search-preview.
import type { GrantableScope, PreviewQuery, Product, SortColumn } from '../api/types.ts';

export interface PreviewFormValues {
  readonly subjectKind: 'client' | 'hypothetical';
  readonly clientId: string;
  readonly scopes: readonly GrantableScope[];
  readonly channel: string;
  readonly q: string;
  readonly brandName: string;
  /** '' = the search's default order (relevance). */
  readonly sort: SortColumn | '';
  readonly order: 'asc' | 'desc';
  readonly fields: string;
  readonly displayOnWeb: '' | 'true' | 'false';
  readonly includeArchived: boolean;
  readonly updatedAfter: string;
  readonly size: string;
}

export const DEFAULT_PREVIEW_FORM: PreviewFormValues = {
  subjectKind: 'client',
  clientId: '',
  scopes: ['products.read'],
  channel: '',
  q: '',
  brandName: '',
  sort: '',
  order: 'asc',
  fields: '',
  displayOnWeb: '',
  includeArchived: false,
  updatedAfter: '',
  size: '20',
};

/** Only the non-empty parameters; `order` only with a `sort`. */
export function buildPreviewQuery(form: PreviewFormValues): PreviewQuery {
  const query: PreviewQuery = {};
  if (form.subjectKind === 'client') {
    if (form.clientId !== '') query.asClient = form.clientId;
  } else {
    if (form.scopes.length > 0) query.scopes = form.scopes.join(',');
    if (form.channel !== '') query.channel = form.channel;
  }
  const q = form.q.trim();
  if (q !== '') query.q = q;
  const brandName = form.brandName.trim();
  if (brandName !== '') query.brandName = brandName;
  if (form.sort !== '') {
    query.sort = form.sort;
    query.order = form.order;
  }
  const fields = form.fields
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean)
    .join(',');
  if (fields !== '') query.fields = fields;
  if (form.displayOnWeb !== '') query.displayOnWeb = form.displayOnWeb;
  if (form.includeArchived) query.includeArchived = 'true';
  const updatedAfter = form.updatedAfter.trim();
  if (updatedAfter !== '') query.updatedAfter = updatedAfter;
  const size = form.size.trim();
  if (size !== '') query.size = Number(size);
  return query;
}

/** The table's columns without a `fields` list: those of these present in some record. */
export const PREVIEW_COLUMNS = ['id', 'productCode', 'name', 'brandName', 'displayOnWeb'] as const;

/** At most this many columns: the JSON of each record shows the rest. */
export const MAX_PREVIEW_COLUMNS = 8;

/**
 * The table's columns: `id` first, then the fields the search asked for in their order (a field the
 * allowlist withholds stays, shown as omitted: that is what the preview is for), else the defaults
 * present in some record.
 */
export function previewColumns(fields: string | undefined, records: readonly Product[]): string[] {
  const asked = (fields ?? '')
    .split(',')
    .map((field) => field.trim())
    .filter((field) => field !== '' && field !== 'id');
  const columns =
    asked.length > 0
      ? [...new Set(asked)]
      : PREVIEW_COLUMNS.filter((column) => column !== 'id' && records.some((record) => column in record));
  return ['id', ...columns].slice(0, MAX_PREVIEW_COLUMNS);
}

const MAX_CELL_LENGTH = 60;

/** A cell: "(omitted)" for a field the record does not carry, JSON (shortened) for objects and lists. */
export function cellText(record: Product, column: string): string {
  if (!(column in record)) return '(omitted)';
  const value: unknown = (record as Record<string, unknown>)[column];
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return text.length > MAX_CELL_LENGTH ? `${text.slice(0, MAX_CELL_LENGTH - 1)}…` : text;
}

/** "20 products", or "at least 10000 products" when the count is a lower bound. */
export function countLine(total: number, lowerBound: boolean): string {
  const phrase = total === 1 && !lowerBound ? 'product matches' : 'products match';
  return `${lowerBound ? 'At least ' : ''}${total.toLocaleString('en')} ${phrase}`;
}
